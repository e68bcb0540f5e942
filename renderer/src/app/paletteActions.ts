/**
 * Everything the ⌘K palette offers: every screen, every engine action, composing each message type, the
 * open message's actions, appearance and addresses. One table, so the palette and its test agree.
 */
import { MESSAGE_TYPES, type MessageType } from '../../../main/contract/message/messageShapes';
import { TIME_STEPS } from '../lib/timeSteps';
import type { View } from '../stores/router';
import { VIEW_LABELS } from './viewLabels';

export interface PaletteAction {
  id: string;
  group: 'Go to' | 'Engine' | 'Compose' | 'Message' | 'Appearance' | 'Copy';
  label: string;
  /** Other words it is found by. */
  keywords?: string[];
  /** The keys that do the same outside the palette, shown on the right. */
  hint?: string;
}

/** What the palette needs to know of the workbench now. */
export interface PaletteContext {
  /** The message open in Live, if any. */
  openMessageId: number | null;
  forwardingPaused: boolean;
  clockMoved: boolean;
  /** A retry is waiting (the top bar's Next retry is enabled): the palette offers Next retry only then. */
  retryWaiting: boolean;
  hasIngestUrl: boolean;
}

export { VIEW_LABELS };

export function paletteActions(ctx: PaletteContext): PaletteAction[] {
  const actions: PaletteAction[] = [];
  for (const [view, label] of Object.entries(VIEW_LABELS) as [View, string][]) {
    actions.push({ id: `view:${view}`, group: 'Go to', label });
  }
  actions.push({ id: 'create:destination', group: 'Go to', label: 'New destination', keywords: ['add', 'webhook', 'setup'] });
  // The Audiences screen also holds computed traits and deletion requests: a user typing "delete user" finds it.
  actions.push(
    { id: 'create:audience', group: 'Go to', label: 'New audience', keywords: ['segment', 'members', 'rule', 'add'] },
    { id: 'create:trait', group: 'Go to', label: 'New computed trait', keywords: ['value', 'add'] },
    { id: 'create:deletion', group: 'Go to', label: 'New deletion request', keywords: ['delete', 'user', 'forget', 'erase', 'gdpr', 'privacy'] },
  );
  // The Signature panel lives in an attempt's detail: this opens the open message's newest attempt, or the newest one sent.
  actions.push({
    id: 'signature:open',
    group: ctx.openMessageId !== null ? 'Message' : 'Go to',
    label: ctx.openMessageId !== null ? `Signature panel of message ${ctx.openMessageId}` : 'Signature panel (newest attempt)',
    keywords: ['signature', 'verify', 'X-Signature', 'HMAC', 'secret', 'check'],
  });
  for (const step of TIME_STEPS) actions.push({ id: `time:${step.action}`, group: 'Engine', label: `Advance the clock ${step.label}`, keywords: ['time travel', 'fast forward', step.label] });
  if (ctx.retryWaiting) actions.push({ id: 'time:next', group: 'Engine', label: 'Next retry', keywords: ['time travel', 'jump', 'due'] });
  if (ctx.clockMoved) actions.push({ id: 'time:reset', group: 'Engine', label: 'Reset offset', keywords: ['time travel', 'real time', 'clock'] });
  actions.push(
    ctx.forwardingPaused
      ? { id: 'forwarding:resume', group: 'Engine', label: 'Resume forwarding', keywords: ['start', 'deliver'] }
      : { id: 'forwarding:pause', group: 'Engine', label: 'Pause forwarding', keywords: ['stop', 'hold'] },
  );
  for (const type of MESSAGE_TYPES) actions.push({ id: `compose:${type}`, group: 'Compose', label: `Compose ${article(type)} ${type}`, keywords: ['new', 'send', 'message'] });
  if (ctx.openMessageId !== null) {
    actions.push(
      { id: 'message:retry', group: 'Message', label: `Retry message ${ctx.openMessageId} now`, hint: 'r' },
      { id: 'message:cancel', group: 'Message', label: `Cancel message ${ctx.openMessageId}` },
      { id: 'message:replay', group: 'Message', label: `Replay message ${ctx.openMessageId}`, keywords: ['again', 'resend'] },
    );
  }
  actions.push(
    { id: 'theme:system', group: 'Appearance', label: 'Theme: system', keywords: ['appearance', 'mode'] },
    { id: 'theme:light', group: 'Appearance', label: 'Theme: light', keywords: ['appearance', 'mode'] },
    { id: 'theme:dark', group: 'Appearance', label: 'Theme: dark', keywords: ['appearance', 'mode', 'night'] },
    { id: 'density:comfortable', group: 'Appearance', label: 'Density: comfortable', keywords: ['rows', 'spacing'] },
    { id: 'density:compact', group: 'Appearance', label: 'Density: compact', keywords: ['rows', 'spacing', 'dense'] },
    { id: 'copy:ui', group: 'Copy', label: 'Copy the UI link', keywords: ['url', 'share', 'token'] },
  );
  if (ctx.hasIngestUrl) actions.push({ id: 'copy:ingest', group: 'Copy', label: 'Copy the ingestion URL', keywords: ['sdk', 'url', 'v1', 'batch'] });
  return actions;
}

function article(type: MessageType): string {
  return /^[aeiou]/.test(type) ? 'an' : 'a';
}

/** "#42", "42", "message 42": the palette offers to open that message. */
export function messageIdIn(search: string): number | null {
  const m = /^\s*(?:message\s*)?#?(\d{1,15})\s*$/i.exec(search);
  return m ? Number(m[1]) : null;
}

/** The words of a label or a keyword, lowercased: "Theme: dark" → theme, dark; "+1 h" → +1, h. */
function wordsOf(text: string): string[] {
  return text.toLowerCase().split(/[\s:(),·]+/).filter(Boolean);
}

/**
 * How well an entry matches what was typed, by words (cmdk's filter: 0 hides it, higher ranks first). Every
 * typed word must begin a word of the label (best when it is the whole word, then when it is the label's
 * first word) or of a keyword; "hist" finds History and nothing whose letters merely occur in order.
 * A typed word with a digit may also run across the label's spaces ("4h" finds "+4 h").
 */
export function paletteScore(label: string, search: string, keywords: readonly string[] = []): number {
  const typed = wordsOf(search);
  if (typed.length === 0) return 1;
  const labelWords = wordsOf(label);
  const keywordWords = keywords.flatMap(wordsOf);
  const joined = labelWords.join('');
  let score = 1;
  for (const word of typed) {
    let best = 0;
    labelWords.forEach((w, i) => {
      const first = i === 0 ? 0.1 : 0;
      if (w === word) best = Math.max(best, 0.9 + first);
      else if (w.startsWith(word)) best = Math.max(best, 0.7 + first);
    });
    if (best === 0 && keywordWords.some((w) => w.startsWith(word))) best = 0.5;
    if (best === 0 && /\d/.test(word) && joined.includes(word)) best = 0.3;
    if (best === 0) return 0;
    score *= best;
  }
  return score;
}
