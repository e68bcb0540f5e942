/**
 * What Compare shows for two attempts (of one message across webhooks, or of two messages): the facts,
 * headers and bodies side by side, each row marked same / changed / only on one side. Pure, unit-tested.
 */
import type { AttemptRecord } from '../../../main/contract/deliveries';
import type { MessageDetail } from '../../../main/contract/messages';
import { formatDuration, formatTimestamp } from './format';

export type Change = 'same' | 'changed' | 'left-only' | 'right-only';

export interface DiffRow {
  name: string;
  left: string | null;
  right: string | null;
  change: Change;
}

function changeOf(left: string | null, right: string | null): Change {
  if (left === null) return 'right-only';
  if (right === null) return 'left-only';
  return left === right ? 'same' : 'changed';
}

/**
 * Headers matched by name without regard to case (HTTP's rule), in the order the left side sent them,
 * then the right side's own headers in its order. The left side's spelling of a name is kept.
 */
export function diffHeaders(left: Record<string, string> | null, right: Record<string, string> | null): DiffRow[] {
  const rightByName = new Map(Object.entries(right ?? {}).map(([k, v]) => [k.toLowerCase(), { name: k, value: v }]));
  const rows: DiffRow[] = [];
  const seen = new Set<string>();
  for (const [name, value] of Object.entries(left ?? {})) {
    const key = name.toLowerCase();
    seen.add(key);
    const other = rightByName.get(key)?.value ?? null;
    rows.push({ name, left: value, right: other, change: changeOf(value, other) });
  }
  for (const [key, { name, value }] of rightByName) {
    if (!seen.has(key)) rows.push({ name, left: null, right: value, change: 'right-only' });
  }
  return rows;
}

export interface ComparedAttempt {
  attempt: AttemptRecord;
  /** The exact request body sent (the message's body). */
  body: string;
  destinationName: string;
  /** What the message is, for labels: its event, name or type. */
  messageLabel: string;
}

export function attemptLabel(c: ComparedAttempt): string {
  return `${c.messageLabel} · ${c.destinationName} · webhook ${c.attempt.webhookIndex + 1} · attempt ${c.attempt.attemptNumber}`;
}

/** The facts compared first: where it went, what came back, how long it took. */
export function diffFacts(a: ComparedAttempt, b: ComparedAttempt): DiffRow[] {
  const facts = (c: ComparedAttempt): [string, string | null][] => [
    ['Message', c.messageLabel],
    ['Destination', c.destinationName],
    ['URL', c.attempt.url],
    ['Outcome', c.attempt.outcome],
    ['Status', c.attempt.statusCode === null ? 'no response' : `HTTP ${c.attempt.statusCode}`],
    ['Error', c.attempt.error],
    ['Started', formatTimestamp(c.attempt.startedAt)],
    ['Signature sent', c.attempt.signature],
    ['Request body', `${new TextEncoder().encode(c.body).length} bytes`],
  ];
  const left = facts(a);
  const right = facts(b);
  const rows = left.map(([name, value], i) => {
    const other = right[i]![1];
    return { name, left: value, right: other, change: value === null && other === null ? 'same' : changeOf(value, other) } as DiffRow;
  });
  // Started times always differ; only a difference worth reading is marked.
  const started = rows.find((r) => r.name === 'Started');
  if (started) started.change = 'same';
  return rows;
}

/** "+1.2 s slower" / "35 ms faster" / "same latency": the right side against the left. */
export function latencyDelta(leftMs: number, rightMs: number): string {
  const delta = Math.round(rightMs - leftMs);
  if (delta === 0) return 'same latency';
  return `${formatDuration(Math.abs(delta))} ${delta > 0 ? 'slower' : 'faster'}`;
}

/** Bodies are compared pretty-printed when both are JSON (a one-line body diffs as one line otherwise). */
export function comparableBodies(left: string, right: string, raw: boolean): [string, string] {
  if (raw) return [left, right];
  const pretty = (text: string): string | null => {
    try {
      return JSON.stringify(JSON.parse(text), null, 2);
    } catch {
      return null;
    }
  };
  const l = pretty(left);
  const r = pretty(right);
  return l !== null && r !== null ? [l, r] : [left, right];
}

/** What a message is called in labels: its event, its page or screen name, else its type. */
export function messageLabelOf(detail: MessageDetail): string {
  const m = detail.message;
  const name = typeof m.call['name'] === 'string' ? m.call['name'] : null;
  return m.event ?? name ?? `${m.type} ${m.messageId}`;
}

/** Every attempt of a message, ready to compare, newest first. */
export function comparableAttempts(detail: MessageDetail): ComparedAttempt[] {
  const destinations = new Map(detail.deliveries.map((d) => [d.id, d.destinationName]));
  const label = messageLabelOf(detail);
  return [...detail.attempts]
    .sort((a, b) => b.startedAt - a.startedAt || b.id - a.id)
    .map((attempt) => ({ attempt, body: detail.message.body, destinationName: destinations.get(attempt.deliveryId) ?? 'destination', messageLabel: label }));
}

/** The latest attempt of each webhook (destination × URL), newest first: "this message across its webhooks". */
export function latestPerWebhook(detail: MessageDetail): ComparedAttempt[] {
  const seen = new Set<string>();
  return comparableAttempts(detail).filter((c) => {
    const key = `${c.attempt.deliveryId}/${c.attempt.webhookIndex}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
