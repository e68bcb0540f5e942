/**
 * Reading an export back (pure): JSON lines of MessageDetail (exportMessages' `json`) or a HAR 1.2 document
 * (its `har`: one entry per attempt, grouped back into messages by `_messageId`). Each message comes out as
 * what intake needs to send it again, with a label naming where it was in the file, so a bad entry is
 * reported as `line 3: …` or `log.entries[5].request.postData.text: …`.
 */
import { IMPORT_LIMITS } from '../contract/importMessages.js';
import { MESSAGE_TYPES, type MessageType } from '../contract/message/messageShapes.js';
import { err, ok, type Result } from '../contract/result.js';
import { parseUserJson } from './userJson.js';

export interface ImportedCall {
  /** Where it was: `line 3`, `log.entries[5]`. */
  label: string;
  type: MessageType;
  call: Record<string, unknown>;
  /** The message's id, source and destinations where it was exported (destinations by id and name). */
  originalId: number | null;
  sourceId: string | null;
  destinations: { id: string | null; name: string | null }[];
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
  // JSON lines have a whole message on their first line: read line by line, never as one document.
  const newline = trimmed.indexOf('\n');
  const firstLine = (newline < 0 ? trimmed : trimmed.slice(0, newline)).trim();
  const lineByLine = firstLine.startsWith('{') && firstLine.length < trimmed.trim().length && parseJson(firstLine).ok;
  if (trimmed.startsWith('{') && !lineByLine) {
    // A HAR is one JSON document (pretty-printed, or on one line).
    const doc = parseJson(text);
    if (!doc.ok && !doc.syntax) return bad('the document', doc.problem);
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
    // The messageId it was sent with (made by the workbench when the call had none).
    const messageId = typeof m['messageId'] === 'string' ? m['messageId'] : m['call']['messageId'];
    calls.push({
      label,
      type,
      call: messageId === undefined ? m['call'] : { ...m['call'], messageId },
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
      const { type: _type, ...rest } = body;
      const sourceId = typeof entry['_sourceId'] === 'string' ? entry['_sourceId'] : null;
      call = { label, type, call: rest, originalId, sourceId, destinations: [] };
      byMessage.set(key, call);
      const limit = tooMany(byMessage.size);
      if (limit) return limit;
    }
    const destinationId = typeof entry['_destinationId'] === 'string' ? entry['_destinationId'] : null;
    if (destinationId && !call.destinations.some((d) => d.id === destinationId)) call.destinations.push({ id: destinationId, name: null });
  }
  if (byMessage.size === 0) return bad('log.entries', 'no entry in it');
  return ok({ format: 'har', calls: [...byMessage.values()] });
}
