/**
 * Reading an export back (pure): JSON lines of MessageDetail (exportMessages' `json`) or a HAR 1.2 document
 * (its `har`: one entry per attempt, grouped back into messages by `_messageId`). Each message comes out as
 * what intake needs to send it again, with a label naming where it was in the file, so a bad entry is
 * reported as `line 3: …` or `log.entries[5].request.postData.text: …`.
 */
import { IMPORT_LIMITS } from '../contract/importMessages.js';
import { MESSAGE_SHAPES, MESSAGE_TYPES, type MessageType } from '../contract/message/messageShapes.js';
import { err, ok, type Result } from '../contract/result.js';
import { isoFromMs } from '../contract/message/timestamp.js';
import { parseUserJson } from './userJson.js';

/**
 * What the workbench filled into an original body that its call did not give: the time of receipt (the
 * body's `timestamp`), the sender's address (`context.ip`) and the messageId it made. A copy's body takes them
 * too, so that it says what the original said; they stay out of the call, which is measured against the
 * 32 KiB limit as the original was.
 */
export interface FilledByWorkbench {
  timestampMs?: number;
  ip?: string;
  messageId?: string;
}

export interface ImportedCall {
  /** Where it was: `line 3`, `log.entries[5]`. */
  label: string;
  type: MessageType;
  call: Record<string, unknown>;
  /** The message's id, source and destinations where it was exported (destinations by id and name). */
  originalId: number | null;
  sourceId: string | null;
  destinations: { id: string | null; name: string | null }[];
  filled: FilledByWorkbench;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const bad = (field: string, message: string): Result<never> => err({ code: 'invalid_input', field: 'text', message: `text: ${field}: ${message}` });

/**
 * JSON of an export, read by the one parser of JSON a user gives (./userJson.ts): a key given twice or a
 * number beyond a double refused, as in a config file or a scenarios file.
 */
function parseJson(text: string): { ok: true; value: unknown } | { ok: false; problem: string; syntax: boolean } {
  const parsed = parseUserJson(text);
  if (parsed.ok) return parsed;
  const p = parsed.error;
  const where = `line ${p.line}, column ${p.column}`;
  return p.kind ? { ok: false, problem: `${p.problem} (at ${where})`, syntax: false } : { ok: false, problem: `not JSON (${p.problem} at ${where})`, syntax: true };
}

export function parseExport(text: string): Result<{ format: 'json' | 'har'; calls: ImportedCall[] }> {
  const trimmed = text.trimStart();
  // The third export format replays attempts as shell commands: it holds no calls to read back.
  if (/^(#!\/bin\/sh|curl\s)/.test(trimmed)) return bad('the document', 'a cURL script (the `curl` export) cannot be read back; export the messages as JSON lines or HAR and import that');
  // JSON lines have a whole message on their first line: read line by line, never as one document.
  const newline = trimmed.indexOf('\n');
  const firstLine = (newline < 0 ? trimmed : trimmed.slice(0, newline)).trim();
  const lineByLine = firstLine.startsWith('{') && firstLine.length < trimmed.trim().length && parseJson(firstLine).ok;
  if (trimmed.startsWith('{') && !lineByLine) {
    // A HAR is one JSON document (pretty-printed, or on one line).
    const doc = parseJson(text);
    if (!doc.ok && !doc.syntax) return bad('the document', doc.problem);
    // Each line of JSON lines is a message, `{…}`: a second line that is not one makes the text one document (a
    // pretty-printed HAR cut short), whose error is where the document breaks, not at its first line's end.
    const second = newline < 0 ? '' : (trimmed.slice(newline + 1).split('\n').find((l) => l.trim() !== '') ?? '').trim();
    if (!doc.ok && second !== '' && !second.startsWith('{')) return bad('the document', `${doc.problem}; give a JSON lines export (one message a line) or a HAR file`);
    if (doc.ok && isObject(doc.value) && isObject(doc.value['log'])) return parseHar(doc.value['log']);
    if (doc.ok && isObject(doc.value)) return withFormat('json', parseDetails([{ label: 'line 1', value: doc.value }]));
  }
  if (trimmed.startsWith('[')) {
    const doc = parseJson(text);
    if (!doc.ok) return bad('the document', doc.problem);
    if (!Array.isArray(doc.value)) return bad('the document', 'not a JSON array');
    return withFormat('json', parseDetails(doc.value.map((value, i) => ({ label: `[${i}]`, value }))));
  }
  const lines: { label: string; value: unknown }[] = [];
  for (const [i, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    const parsed = parseJson(line);
    if (!parsed.ok) return bad(`line ${i + 1}`, `${parsed.problem}${parsed.syntax ? '; give a JSON lines export (one message a line) or a HAR file' : ''}`);
    lines.push({ label: `line ${i + 1}`, value: parsed.value });
  }
  if (lines.length === 0) return bad('the document', 'no message in it');
  return withFormat('json', parseDetails(lines));
}

function withFormat(format: 'json' | 'har', parsed: Result<ImportedCall[]>): Result<{ format: 'json' | 'har'; calls: ImportedCall[] }> {
  return parsed.ok ? ok({ format, calls: parsed.value }) : parsed;
}

function typeOf(value: unknown): MessageType | null {
  return typeof value === 'string' && (MESSAGE_TYPES as readonly string[]).includes(value) ? (value as MessageType) : null;
}

function tooMany(n: number): Result<never> | null {
  return n > IMPORT_LIMITS.messages ? bad('the document', `${n.toLocaleString('en-US')} messages; one import takes at most ${IMPORT_LIMITS.messages.toLocaleString('en-US')} (export fewer)`) : null;
}

/** exportMessages' `json`: one {message, deliveries, attempts} per line. */
function parseDetails(items: { label: string; value: unknown }[]): Result<ImportedCall[]> {
  const limit = tooMany(items.length);
  if (limit) return limit;
  const calls: ImportedCall[] = [];
  for (const { label, value } of items) {
    if (!isObject(value) || !isObject(value['message'])) return bad(label, 'not an exported message (expected {"message": {...}, "deliveries": [...]})');
    const m = value['message'];
    const type = typeOf(m['type']);
    if (!type) return bad(`${label}: message.type`, `must be one of ${MESSAGE_TYPES.join(', ')} (got ${JSON.stringify(m['type'])?.slice(0, 40)})`);
    if (!isObject(m['call'])) return bad(`${label}: message.call`, 'must be an object (the call as received)');
    const deliveries = Array.isArray(value['deliveries']) ? value['deliveries'].filter(isObject) : [];
    const call = m['call'];
    calls.push({
      label,
      type,
      call,
      filled: filledInto(call, typeof m['body'] === 'string' ? m['body'] : null, typeof m['messageId'] === 'string' ? m['messageId'] : null),
      originalId: typeof m['id'] === 'number' ? m['id'] : null,
      sourceId: typeof m['sourceId'] === 'string' ? m['sourceId'] : null,
      destinations: deliveries.map((d) => ({
        id: typeof d['destinationId'] === 'string' ? d['destinationId'] : null,
        name: typeof d['destinationName'] === 'string' ? d['destinationName'] : null,
      })),
    });
  }
  return ok(calls);
}

/** exportMessages' `har`: entries are attempts; the request body is the message as delivered. */
function parseHar(log: Record<string, unknown>): Result<{ format: 'har'; calls: ImportedCall[] }> {
  const entries = log['entries'];
  if (!Array.isArray(entries)) return bad('log.entries', 'must be an array (a HAR 1.2 document)');
  const byMessage = new Map<string, ImportedCall>();
  for (const [i, entry] of entries.entries()) {
    const label = `log.entries[${i}]`;
    if (!isObject(entry) || !isObject(entry['request'])) return bad(label, 'not a HAR entry (no request)');
    const postData = entry['request']['postData'];
    const bodyText = isObject(postData) ? postData['text'] : undefined;
    if (typeof bodyText !== 'string') return bad(`${label}.request.postData.text`, 'missing: an entry must carry the request body');
    const parsed = parseJson(bodyText);
    if (!parsed.ok) return bad(`${label}.request.postData.text`, parsed.problem);
    const body = parsed.value;
    if (!isObject(body)) return bad(`${label}.request.postData.text`, 'not a JSON object (a message body)');
    const type = typeOf(body['type']);
    if (!type) return bad(`${label}.request.postData.text.type`, `must be one of ${MESSAGE_TYPES.join(', ')} (got ${JSON.stringify(body['type'])?.slice(0, 40)})`);
    const originalId = typeof entry['_messageId'] === 'number' ? entry['_messageId'] : null;
    // Attempts of one message share its id (and body); without one, each entry is its own message.
    const key = originalId !== null ? `id:${originalId}` : `entry:${i}`;
    let call = byMessage.get(key);
    if (!call) {
      const sourceId = typeof entry['_sourceId'] === 'string' ? entry['_sourceId'] : null;
      call = { label, type, ...callOfBody(body, type), originalId, sourceId, destinations: [] };
      byMessage.set(key, call);
      const limit = tooMany(byMessage.size);
      if (limit) return limit;
    }
    const destinationId = typeof entry['_destinationId'] === 'string' ? entry['_destinationId'] : null;
    const destinationName = typeof entry['_destinationName'] === 'string' ? entry['_destinationName'] : null;
    if ((destinationId || destinationName) && !call.destinations.some((d) => (destinationId ? d.id === destinationId : d.name === destinationName))) call.destinations.push({ id: destinationId, name: destinationName });
  }
  if (byMessage.size === 0) return bad('log.entries', 'no entry in it');
  return ok({ format: 'har', calls: [...byMessage.values()] });
}

/** A body's `timestamp` as ms, when the body builder writes that very string for it (isoFromMs); else undefined. */
function timestampMsOf(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const ms = Date.parse(value);
  return Number.isFinite(ms) && isoFromMs(ms) === value ? ms : undefined;
}

const givesNothing = (value: unknown): boolean => value === undefined || value === null || value === '';

/** What the original body holds that its call (JSON lines keep the call as received) did not give. */
function filledInto(call: Record<string, unknown>, bodyText: string | null, messageId: string | null): FilledByWorkbench {
  let body: unknown = null;
  try {
    body = bodyText === null ? null : JSON.parse(bodyText);
  } catch {
    // Not a body this workbench wrote: nothing is taken from it.
  }
  const filled: FilledByWorkbench = {};
  if (messageId !== null && call['messageId'] === undefined) filled.messageId = messageId;
  if (!isObject(body)) return filled;
  if (givesNothing(call['timestamp'])) {
    const ms = timestampMsOf(body['timestamp']);
    if (ms !== undefined) filled.timestampMs = ms;
  }
  const ip = isObject(body['context']) ? body['context']['ip'] : undefined;
  const context = call['context'];
  if (typeof ip === 'string' && (!isObject(context) || context['ip'] === undefined)) filled.ip = ip;
  return filled;
}

/**
 * The body keys a call names otherwise (an alias's "User ID" and "Previous ID" are its userId and previousId):
 * the builder reads a call by the call's names, so a body read back as a call is given them again.
 */
function callNamesOf(type: MessageType): [bodyKey: string, callKey: string][] {
  const shape = MESSAGE_SHAPES[type];
  const names: [string, string][] = shape.order.includes('User ID') ? [['User ID', 'userId']] : [];
  for (const field of [...shape.fields, ...shape.extras]) if (!field.from.includes(field.out)) names.push([field.out, field.from[0]!]);
  return names;
}

/**
 * A HAR entry's body (the message as delivered) as a call again: without its type and the version every body
 * carries, and with what the workbench may have filled (timestamp, messageId, `context.ip`) taken out into
 * `filled`, from where the copy's body gets them back, so that the call measures as the original did.
 */
function callOfBody(body: Record<string, unknown>, type: MessageType): { call: Record<string, unknown>; filled: FilledByWorkbench } {
  const { type: _type, ...call } = body;
  const filled: FilledByWorkbench = {};
  if (call['version'] === 1) delete call['version'];
  for (const [bodyKey, callKey] of callNamesOf(type)) {
    if (!(bodyKey in call) || callKey in call) continue;
    call[callKey] = call[bodyKey];
    delete call[bodyKey];
  }
  const ms = timestampMsOf(call['timestamp']);
  if (ms !== undefined) {
    filled.timestampMs = ms;
    delete call['timestamp'];
  }
  if (typeof call['messageId'] === 'string') {
    filled.messageId = call['messageId'];
    delete call['messageId'];
  }
  const context = call['context'];
  if (isObject(context) && typeof context['ip'] === 'string') {
    const { ip, ...rest } = context;
    filled.ip = ip;
    // A context that held only the address the workbench added goes: the builder puts it back.
    if (Object.keys(rest).length === 0) delete call['context'];
    else call['context'] = rest;
  } else if (isObject(context) && Object.keys(context).length === 0 && MESSAGE_SHAPES[type].contextIsCore) {
    // The empty context every body of this type carries, which the builder writes again.
    delete call['context'];
  }
  return { call, filled };
}
