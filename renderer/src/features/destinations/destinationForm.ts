/**
 * The destination forms' model. The fields become the command's input (createDestination's for the new
 * destination, updateDestination's patch for the editor) and that input is checked with the command's own
 * schema (main/contract/schemas.ts), so the form refuses exactly what the API would, every problem at once.
 * Each problem is said in its field's words and units: a timeout typed in seconds is answered in seconds,
 * a retry schedule names its entry, a header its name. A server error that still comes back (a name that is
 * taken, a CA file that cannot be read) is put the same way, on its field.
 */
import { DEFAULT_TIMEOUT_MS, type RetryPolicy } from '../../../../main/contract/destinations';
import { eachProblem } from '../../../../main/contract/problems';
import type { ApiError } from '../../../../main/contract/result';
import { destinationInputSchema, destinationPatchSchema, formatPath, headerGivenTwice, MORE_PROBLEMS, retryPolicyInputSchema, type DestinationInput, type DestinationPatch } from '../../../../main/contract/schemas';
import { durationUnit, formatInUnit, parseDuration } from '../../lib/duration';
import { eventList, fieldLabel, formSlot, webhooksInput, type WebhookRow } from './model';
import { formatCount } from '../../lib/format';

/** Problems by form slot (formSlot), one line each, every line starting with the field's label. */
export type FormErrors = Record<string, string>;

/** The timeout and retry fields as typed. */
export interface DeliveryForm {
  timeout: string;
  schedule: string;
  window: string;
  jitter: string;
  maxAttempts: string;
}

/** What a destination form holds, as typed. The editor has every field; the new-destination form the first five. */
export interface DestinationForm {
  name: string;
  /** Source ids. */
  sources: string[];
  rows: readonly WebhookRow[];
  /** The shared secret as typed (empty: unsigned); undefined leaves it out (the editor's stored one, untouched). */
  secret?: string | undefined;
  /** The new destination's switch; in the editor, whether the destination is on (the switch saves by itself). */
  enabled: boolean;
  delivery?: DeliveryForm;
  filters?: { allow: string; block: string };
  caFile?: string;
}

/** `create`: checked as createDestination's input; `update`: as updateDestination's patch. */
export type FormKind = 'create' | 'update';

export interface CheckedForm<K extends FormKind> {
  /** What Save sends once `problems` is empty. */
  input: K extends 'create' ? DestinationInput : DestinationPatch;
  /** Every problem, by slot, in the order the form shows its fields. */
  problems: FormErrors;
  /** The retry policy the fields give (for the ladder), or null while one of them has a problem. */
  policy: RetryPolicy | null;
}

const timeoutSchema = destinationPatchSchema.shape.timeoutMs.unwrap();
const retryShape = retryPolicyInputSchema.shape;

/** The delivery fields' bounds, read from the command's schema (the help under each field says them). */
export const DELIVERY_LIMITS = {
  timeoutMs: { default: DEFAULT_TIMEOUT_MS, max: timeoutSchema.maxValue ?? Infinity },
  scheduleEntryMs: { max: retryShape.schedule.unwrap().element.maxValue ?? Infinity },
  windowMs: { max: retryShape.windowMs.unwrap().maxValue ?? Infinity },
  maxAttempts: { min: retryShape.maxAttempts.unwrap().unwrap().minValue ?? 1, max: retryShape.maxAttempts.unwrap().unwrap().maxValue ?? Infinity },
  jitter: { min: retryShape.jitter.unwrap().minValue ?? 0, max: retryShape.jitter.unwrap().maxValue ?? 1 },
};

/** What the check needs to put a problem back on the field the user typed. */
interface Built {
  candidate: Record<string, unknown>;
  /** Problems found while reading the text (not a duration, not a number), by slot. */
  parseProblems: { slot: string; message: string }[];
  /** What was typed for each checked number, by its path in the input: `timeoutMs`, `retry.schedule[1]`. */
  typed: Map<string, string>;
  /** The form row of each webhook sent (rows left empty are not). */
  webhookRows: number[];
  /** The schedule entry of each delay sent (entries that are not durations are not). */
  scheduleEntries: number[];
}

function build(kind: FormKind, form: DestinationForm): Built {
  const typed = new Map<string, string>();
  const parseProblems: Built['parseProblems'] = [];
  const problem = (slot: string, label: string, message: string) => parseProblems.push({ slot, message: `${label}: ${message}` });

  // What the input cannot carry is said here, before webhooksInput leaves it out: a header with a value but no
  // name, and a name given twice (an object keeps only the last of the two, so the schema never sees the first).
  form.rows.forEach((row, i) =>
    row.headers.forEach((h, k) => {
      const name = h.name.trim();
      if (name === '' && h.value !== '') problem(`webhooks[${i}].headers`, `Webhook ${i + 1} header ${k + 1} name`, 'empty, but the header has a value: give its name, or remove the header');
      const first = row.headers.slice(0, k).find((e) => e.name.trim().toLowerCase() === name.toLowerCase());
      if (name !== '' && first) problem(`webhooks[${i}].headers`, `Webhook ${i + 1} header ${name}`, headerGivenTwice(name, first.name.trim()));
    }),
  );
  const webhookRows = form.rows.flatMap((row, i) => (webhooksInput([row]).length ? [i] : []));
  const candidate: Record<string, unknown> = { name: form.name, sources: form.sources, webhooks: webhooksInput(form.rows) };
  if (kind === 'create') candidate['enabled'] = form.enabled;
  if (form.secret !== undefined) candidate['sharedSecret'] = form.secret.trim() === '' ? null : form.secret;
  if (form.caFile !== undefined) candidate['caFile'] = form.caFile.trim() === '' ? null : form.caFile.trim();
  if (form.filters) candidate['filters'] = { allowEvents: eventList(form.filters.allow), blockEvents: eventList(form.filters.block) };

  const scheduleEntries: number[] = [];
  const d = form.delivery;
  if (d) {
    const timeout = parseDuration(d.timeout);
    if (timeout.ok) {
      candidate['timeoutMs'] = timeout.ms;
      typed.set('timeoutMs', d.timeout);
    } else problem('timeoutMs', 'Timeout', timeout.message);

    const retry: Record<string, unknown> = {};
    const entries = d.schedule.split(',').map((p) => p.trim());
    if (entries.length === 1 && entries[0] === '') problem('retry.schedule', 'Retry schedule', 'give at least one delay, such as 5s, 30s, 2m');
    else {
      const delays: number[] = [];
      entries.forEach((text, i) => {
        const delay = parseDuration(text);
        if (!delay.ok) return problem('retry.schedule', 'Retry schedule', `entry ${i + 1}: ${delay.message}`);
        typed.set(`retry.schedule[${delays.length}]`, text);
        scheduleEntries.push(i);
        delays.push(delay.ms);
      });
      if (delays.length) retry['schedule'] = delays;
    }

    const window = parseDuration(d.window);
    if (window.ok) {
      retry['windowMs'] = window.ms;
      typed.set('retry.windowMs', d.window);
    } else problem('retry.windowMs', 'Retry window', window.message);

    const jitter = d.jitter.trim();
    const share = Number(jitter.replace(/%$/, '').trim()) / (jitter.endsWith('%') ? 100 : 1);
    if (jitter === '') problem('retry.jitter', 'Jitter', 'give a share such as 0.2 or 20%');
    else if (!Number.isFinite(share) || jitter === '%') problem('retry.jitter', 'Jitter', `"${jitter}" is not a share: write it like 0.2 or 20%`);
    else {
      retry['jitter'] = share;
      typed.set('retry.jitter', jitter);
    }

    const max = d.maxAttempts.trim();
    if (max === '') {
      // Empty is no cap: a patch says so with null, a new destination by leaving it out.
      if (kind === 'update') retry['maxAttempts'] = null;
    } else if (!Number.isFinite(Number(max))) problem('retry.maxAttempts', 'Max attempts', `"${max}" is not a number: write a whole number, or leave it empty for no cap`);
    else {
      retry['maxAttempts'] = Number(max);
      typed.set('retry.maxAttempts', max);
    }
    candidate['retry'] = retry;
  }
  return { candidate, parseProblems, typed, webhookRows, scheduleEntries };
}

/**
 * The form as the command's input and every problem the command would find in it, each on its slot and in
 * the field's units. Rules the registry adds to the schema and the form can see are checked too: a
 * destination that is on needs a webhook URL.
 */
export function checkDestinationForm<K extends FormKind>(kind: K, form: DestinationForm): CheckedForm<K> {
  const b = build(kind, form);
  const lines = new Map<string, string[]>();
  const add = (slot: string, message: string) => {
    const list = lines.get(slot) ?? [];
    if (!list.includes(message)) list.push(message);
    lines.set(slot, list);
  };
  for (const p of b.parseProblems) add(p.slot, p.message);

  const schema = kind === 'create' ? destinationInputSchema : destinationPatchSchema;
  const checked = schema.safeParse(b.candidate);
  if (!checked.success) {
    for (const issue of checked.error.issues) {
      const placed = place(kind, b, issue.path, issueWords(issue, issue.path, b));
      if (placed) add(placed.slot, placed.message);
    }
  }
  if (form.enabled && (b.candidate['webhooks'] as unknown[]).length === 0) {
    if (kind === 'create') add('enabled', 'Enabled: it cannot be saved on without a webhook URL; give one, or turn it off');
    else add('webhooks', 'Webhook URLs: a destination that is on needs at least one; give one, or turn it off first');
  }

  const problems: FormErrors = {};
  // A schedule's entries in their order, whether the text or the schema found the problem.
  const entry = (line: string) => Number(/: entry (\d+): /.exec(line)?.[1] ?? 0);
  for (const slot of [...lines.keys()].sort((a, c) => slotRank(a) - slotRank(c))) problems[slot] = lines.get(slot)!.sort((a, c) => entry(a) - entry(c)).join('\n');
  const retry = b.candidate['retry'] as RetryPolicy | undefined;
  const policy =
    retry && !Object.keys(problems).some((slot) => slot.startsWith('retry.'))
      ? { schedule: retry.schedule, windowMs: retry.windowMs, jitter: retry.jitter, ...(typeof retry.maxAttempts === 'number' ? { maxAttempts: retry.maxAttempts } : {}) }
      : null;
  return { input: b.candidate as CheckedForm<K>['input'], problems, policy };
}

/** A server error placed in the form: its slot, its line, and what the slot held when it came (it shows until that changes). */
export interface ServerProblem {
  slot: string;
  message: string;
  value: string;
}

/**
 * Where a server error belongs in the form and how the form says it: the field as the form labels it (the
 * webhook row the user sees, not the index sent), a bound in the field's units. Null when the form has no
 * place for it (the error is then a notice).
 */
export function serverProblem(kind: FormKind, form: DestinationForm, error: Pick<ApiError, 'field' | 'message' | 'limit'>): ServerProblem | null {
  if (!error.field) return null;
  const field = error.field.replace(/^patch\./, '');
  const path = parsePath(field);
  const b = build(kind, form);
  let words = error.message.startsWith(`${error.field}: `) ? error.message.slice(error.field.length + 2) : error.message;
  const value = valueAt(b.candidate, path);
  if (error.limit !== undefined && typeof value === 'number') {
    const side = /too big|<=|at most/i.test(words) ? 'max' : /too small|>=|at least/i.test(words) ? 'min' : null;
    const more = MORE_PROBLEMS.exec(words)?.[0] ?? '';
    if (side) words = boundWords(side, error.limit, path, b) + more;
  }
  const placed = place(kind, b, path, words);
  return placed && { ...placed, value: slotValue(form, placed.slot) };
}

/**
 * Every problem of a server error (its first and the `problems` after it), each placed in the form as
 * serverProblem places one; those the form has no place for are left for a notice.
 */
export function serverProblems(kind: FormKind, form: DestinationForm, error: ApiError): { placed: ServerProblem[]; unplaced: ApiError[] } {
  const placed: ServerProblem[] = [];
  const unplaced: ApiError[] = [];
  for (const problem of eachProblem(error)) {
    const at = serverProblem(kind, form, problem);
    if (at) placed.push(at);
    else unplaced.push(problem);
  }
  return { placed, unplaced };
}

/** The problems of the slots the user has left (all of them once Save was tried), then the server's that still apply. */
export function shownErrors(problems: FormErrors, touched: ReadonlySet<string> | 'all', server: readonly ServerProblem[], form: DestinationForm): FormErrors {
  const shown: FormErrors = {};
  for (const [slot, message] of Object.entries(problems)) if (touched === 'all' || touched.has(slot)) shown[slot] = message;
  for (const s of server) if (slotValue(form, s.slot) === s.value) shown[s.slot] = shown[s.slot] && !shown[s.slot]!.includes(s.message) ? `${shown[s.slot]}\n${s.message}` : s.message;
  const ordered: FormErrors = {};
  for (const slot of Object.keys(shown).sort((a, c) => slotRank(a) - slotRank(c))) ordered[slot] = shown[slot]!;
  return ordered;
}

/** What a slot holds in the form, to tell whether a server error about it still applies. */
export function slotValue(form: DestinationForm, slot: string): string {
  const webhook = /^webhooks\[(\d+)\]\.(url|headers)$/.exec(slot);
  if (webhook) {
    const row = form.rows[Number(webhook[1])];
    return JSON.stringify(webhook[2] === 'url' ? row?.url : row?.headers);
  }
  const d = form.delivery;
  const values: Record<string, unknown> = {
    name: form.name,
    sources: form.sources,
    webhooks: form.rows.map((r) => r.url),
    sharedSecret: form.secret,
    enabled: [form.enabled, form.rows.map((r) => r.url)],
    caFile: form.caFile,
    timeoutMs: d?.timeout,
    'retry.schedule': d?.schedule,
    'retry.windowMs': d?.window,
    'retry.jitter': d?.jitter,
    'retry.maxAttempts': d?.maxAttempts,
    'filters.allowEvents': form.filters?.allow,
    'filters.blockEvents': form.filters?.block,
  };
  return JSON.stringify(slot in values ? values[slot] : form);
}

/** The label of a slot, for the summary: `webhooks[1].headers` → `Webhook 2 headers`. */
export function slotLabel(slot: string): string {
  return fieldLabel(slot);
}

// ------------------------------------------------------------------------------------------------ words

/** Where a problem at `path` (in the input sent) goes: the slot of the field the user sees, and its line. */
function place(kind: FormKind, b: Built, path: readonly PropertyKey[], words: string): { slot: string; message: string } | null {
  const shown = [...path];
  if (shown[0] === 'webhooks' && typeof shown[1] === 'number') shown[1] = b.webhookRows[shown[1]] ?? shown[1];
  let entry = '';
  if (shown[0] === 'retry' && shown[1] === 'schedule' && typeof shown[2] === 'number') {
    entry = `entry ${(b.scheduleEntries[shown[2]] ?? shown[2]) + 1}: `;
  }
  if (shown[0] === 'filters' && typeof shown[2] === 'number') {
    const event = valueAt(b.candidate, path);
    if (typeof event === 'string' && event !== '') entry = `"${event.length > 24 ? `${event.slice(0, 24)}…` : event}": `;
  }
  const field = formatPath(shown);
  let slot = formSlot(field);
  if (slot === null) return null;
  // The editor has no Enabled field (its switch saves at once): being on without a webhook is the webhooks' problem.
  if (kind === 'update' && slot === 'enabled') slot = 'webhooks';
  return { slot, message: `${fieldLabel(field)}: ${entry}${words}` };
}

interface IssueLike {
  code: string;
  message: string;
  maximum?: unknown;
  minimum?: unknown;
  expected?: unknown;
}

/** A schema issue in words: its bound in the field's units, or the schema's own message where it has one. */
function issueWords(issue: IssueLike, path: readonly PropertyKey[], b: Built): string {
  if (issue.code === 'too_big' && issue.maximum !== undefined) return boundWords('max', Number(issue.maximum), path, b);
  if (issue.code === 'too_small' && issue.minimum !== undefined) return boundWords('min', Number(issue.minimum), path, b);
  if (issue.code === 'invalid_type' && issue.expected === 'int') {
    const value = valueAt(b.candidate, path);
    return isDuration(path) ? issue.message : `must be a whole number${typeof value === 'number' ? ` (got ${formatCount(value)})` : ''}`;
  }
  if (issue.code === 'invalid_type' && issue.expected === 'number') return 'must be a number';
  return issue.message;
}

const isDuration = (path: readonly PropertyKey[]) => {
  const f = formatPath(path);
  return f === 'timeoutMs' || f === 'retry.windowMs' || /^retry\.schedule\[\d+\]$/.test(f);
};

const NOUNS: [RegExp, string, string][] = [
  [/^retry\.schedule$/, 'delay', 'delays'],
  [/^filters\.\w+$/, 'event name', 'event names'],
  [/^sources$/, 'source', 'sources'],
  [/^webhooks$/, 'webhook URL', 'webhook URLs'],
  [/^retry\.maxAttempts$/, 'attempt', 'attempts'],
];

/** "must be at most 120 s (got 500 s)": the bound and the value given, in what the field counts and the unit it was typed in. */
function boundWords(side: 'max' | 'min', bound: number, path: readonly PropertyKey[], b: Built): string {
  const most = side === 'max' ? 'at most' : 'at least';
  const value = valueAt(b.candidate, path);
  const field = formatPath(path);
  const n = (x: number) => formatCount(x);
  if (typeof value === 'string') {
    if (side === 'min' && bound === 1) return 'must not be empty';
    return `must be ${most} ${n(bound)} characters (got ${n(value.length)})`;
  }
  if (Array.isArray(value)) {
    const noun = NOUNS.find(([re]) => re.test(field));
    const many = (x: number) => `${n(x)} ${noun ? (x === 1 ? noun[1] : noun[2]) : x === 1 ? 'entry' : 'entries'}`;
    return `must have ${most} ${many(bound)} (got ${n(value.length)})`;
  }
  if (typeof value !== 'number') return `must be ${most} ${n(bound)}`;
  const typed = b.typed.get(field) ?? '';
  if (isDuration(path)) {
    const unit = durationUnit(typed) ?? 'ms';
    // The least a delay can be is 1 ms: "at least 1 ms" reads oddly beside a value typed in seconds.
    if (side === 'min' && bound === 1 && value < 1) return `must be longer than 0 ${unit}`;
    return `must be ${most} ${formatInUnit(bound, unit)} (got ${formatInUnit(value, unit)})`;
  }
  if (field === 'retry.jitter') {
    if (typed.endsWith('%')) return `must be ${most} ${n(bound * 100)} % (got ${n(value * 100)} %)`;
    return `must be ${most} ${n(bound)} (got ${n(value)}); 0.2 is ±20 %`;
  }
  if (field === 'retry.maxAttempts') {
    const noun = (x: number) => `${n(x)} attempt${x === 1 ? '' : 's'}`;
    return `must be ${most} ${noun(bound)} (got ${n(value)})${side === 'min' ? '; leave it empty for no cap' : ''}`;
  }
  return `must be ${most} ${n(bound)} (got ${n(value)})`;
}

// ------------------------------------------------------------------------------------------------ paths

/** `webhooks[0].headers.X-Env` → ['webhooks', 0, 'headers', 'X-Env'] (formatPath's inverse). */
export function parsePath(field: string): PropertyKey[] {
  const out: PropertyKey[] = [];
  const token = /(?:^|\.)([^.[\]"]+)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/y;
  for (let m = token.exec(field); m; m = token.exec(field)) {
    if (m[1] !== undefined) out.push(m[1]);
    else if (m[2] !== undefined) out.push(Number(m[2]));
    else out.push(JSON.parse(m[3]!) as string);
    if (token.lastIndex === field.length) break;
  }
  return out;
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let at = value;
  for (const key of path) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at;
}

/** The order the forms show their fields in (the summary lists problems in it). */
function slotRank(slot: string): number {
  const webhook = /^webhooks\[(\d+)\]\.(url|headers)$/.exec(slot);
  if (webhook) return (webhook[2] === 'url' ? 20 : 40) + Number(webhook[1]);
  const order = ['name', 'sources', 'webhooks', 'sharedSecret', 'enabled', 'timeoutMs', 'retry.maxAttempts', 'retry.schedule', 'retry.windowMs', 'retry.jitter', 'filters.allowEvents', 'filters.blockEvents', 'caFile'];
  const at = order.indexOf(slot);
  if (at < 0) return 1000;
  // name and sources before the URLs, the URLs' own line (too many) after them, the headers next.
  return at < 2 ? at : at === 2 ? 30 : 50 + at;
}
