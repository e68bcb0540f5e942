import { describe, expect, it } from 'vitest';
import { messageIdIn, paletteActions, VIEW_LABELS } from '../../../renderer/src/app/paletteActions';
import { MESSAGE_TYPES } from '../../../main/contract/message/messageShapes';
import { VIEWS } from '../../../renderer/src/stores/router';

const base = { openMessageId: null, forwardingPaused: false, clockMoved: false, hasIngestUrl: true };

describe('the command palette', () => {
  it('offers every screen, every time-travel step, the forwarding switch and each message type', () => {
    const labels = paletteActions(base).map((a) => a.label);
    for (const view of VIEWS) expect(labels).toContain(VIEW_LABELS[view]);
    for (const step of ['+5 s', '+1 min', '+1 h', '+4 h']) expect(labels).toContain(`Advance the clock ${step}`);
    expect(labels).toContain('Next retry');
    expect(labels).toContain('Pause forwarding');
    for (const type of MESSAGE_TYPES) expect(labels.some((l) => l.startsWith('Compose ') && l.endsWith(` ${type}`))).toBe(true);
    expect(labels).toContain('Compose an identify');
    // Reset offset only once the clock moved; the message's actions only when one is open.
    expect(labels).not.toContain('Reset offset');
    expect(labels.some((l) => l.startsWith('Retry message'))).toBe(false);
    const moved = paletteActions({ ...base, openMessageId: 42, forwardingPaused: true, clockMoved: true }).map((a) => a.label);
    expect(moved).toEqual(expect.arrayContaining(['Reset offset', 'Resume forwarding', 'Retry message 42 now', 'Cancel message 42', 'Replay message 42']));
    expect(moved).not.toContain('Pause forwarding');
    const ids = paletteActions(base).map((a) => a.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('reads a message id typed as 42, #42 or message 42', () => {
    expect(messageIdIn('42')).toBe(42);
    expect(messageIdIn(' #7 ')).toBe(7);
    expect(messageIdIn('Message 9')).toBe(9);
    expect(messageIdIn('live')).toBeNull();
    expect(messageIdIn('4h')).toBeNull();
  });
});
