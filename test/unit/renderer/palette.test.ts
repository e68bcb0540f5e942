import { describe, expect, it } from 'vitest';
import { messageIdIn, paletteActions, paletteScore, VIEW_LABELS } from '../../../renderer/src/app/paletteActions';
import { MESSAGE_TYPES } from '../../../main/contract/message/messageShapes';
import { VIEWS } from '../../../renderer/src/stores/router';

const base = { openMessageId: null, forwardingPaused: false, clockMoved: false, retryWaiting: true, hasIngestUrl: true };

describe('the command palette', () => {
  it('offers every screen, every time-travel step, the forwarding switch and each message type', () => {
    const labels = paletteActions(base).map((a) => a.label);
    for (const view of VIEWS) expect(labels).toContain(VIEW_LABELS[view]);
    for (const step of ['+5 s', '+1 min', '+1 h', '+4 h']) expect(labels).toContain(`Advance the clock ${step}`);
    expect(labels).toContain('Next retry');
    expect(labels).toContain('Pause forwarding');
    for (const type of MESSAGE_TYPES) expect(labels.some((l) => l.startsWith('Compose ') && l.endsWith(` ${type}`))).toBe(true);
    expect(labels).toContain('Compose an identify');
    // Reset offset only once the clock moved; Next retry only while a retry waits; the message's actions only when one is open.
    expect(labels).not.toContain('Reset offset');
    expect(paletteActions({ ...base, retryWaiting: false }).map((a) => a.label)).not.toContain('Next retry');
    expect(labels.some((l) => l.startsWith('Retry message'))).toBe(false);
    const moved = paletteActions({ ...base, openMessageId: 42, forwardingPaused: true, clockMoved: true }).map((a) => a.label);
    expect(moved).toEqual(expect.arrayContaining(['Reset offset', 'Resume forwarding', 'Retry message 42 now', 'Cancel message 42', 'Replay message 42']));
    expect(moved).not.toContain('Pause forwarding');
    const ids = paletteActions(base).map((a) => a.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('ranks by words: "hist" opens History first, and nothing whose letters merely occur in that order', () => {
    /** The labels the palette lists for `search`, best first (cmdk keeps the table's order among equals). */
    const ranked = (search: string) =>
      paletteActions({ ...base, openMessageId: 42, clockMoved: true })
        .map((a, i) => ({ label: a.label, score: paletteScore(a.label, search, a.keywords), i }))
        .filter((a) => a.score > 0)
        .sort((a, b) => b.score - a.score || a.i - b.i)
        .map((a) => a.label);
    expect(ranked('hist')).toEqual(['History']);
    expect(ranked('hist')).not.toContain('Advance the clock +1 h');
    expect(ranked('History')[0]).toBe('History');
    expect(ranked('+1 h')[0]).toBe('Advance the clock +1 h');
    expect(ranked('4h')).toEqual(['Advance the clock +4 h']);
    // A word that starts the label beats one inside it; every typed word must match.
    expect(ranked('re')).toEqual(['Receiver', 'Reset offset', 'Retry message 42 now', 'Replay message 42', 'New deletion request', 'Next retry']);
    expect(ranked('compose an identify')).toEqual(['Compose an identify']);
    expect(ranked('dark')).toEqual(['Theme: dark']);
    // Keywords find what the label does not say.
    expect(ranked('time travel')).toEqual(expect.arrayContaining(['Advance the clock +5 s', 'Next retry', 'Reset offset']));
    expect(ranked('zzz')).toEqual([]);
    // What the Audiences screen holds is found by what a user wants to do there, not only by "Audiences".
    expect(ranked('delete user')[0]).toBe('New deletion request');
    expect(ranked('gdpr')).toEqual(['New deletion request']);
    expect(ranked('computed')).toEqual(['New computed trait']);
    expect(ranked('new audience')[0]).toBe('New audience');
    expect(paletteScore('History', '')).toBe(1);
  });

  it('reads a message id typed as 42, #42 or message 42', () => {
    expect(messageIdIn('42')).toBe(42);
    expect(messageIdIn(' #7 ')).toBe(7);
    expect(messageIdIn('Message 9')).toBe(9);
    expect(messageIdIn('live')).toBeNull();
    expect(messageIdIn('4h')).toBeNull();
  });
});
