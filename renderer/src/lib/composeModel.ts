/**
 * The composer's form, generated from the one shape table (main/contract/message/messageShapes.ts): which fields
 * a type has, how they map to the call, and what is checked before sending. No per-type code.
 */
import { LIMITS, MESSAGE_SHAPES, MESSAGE_TYPES, type FieldKind, type MessageType } from '../../../main/contract/message/messageShapes';
import { readTypedJson } from '../../../main/contract/jsonText';
import { formatCount } from './format';

export interface FormField {
  /** The call's key (canonical input name: `previousId` for alias's "Previous ID"). */
  key: string;
  label: string;
  kind: FieldKind;
  required: boolean;
  help: string;
}

const IDENTITY_HELP = {
  userId: 'The user’s ID in your database.',
  anonymousId: 'An ID for a user not yet identified (a device or session ID).',
};

/** The form of a type: identity first, then the type's own fields, then context and timestamp. */
export function formFields(type: MessageType): FormField[] {
  const shape = MESSAGE_SHAPES[type];
  const fields: FormField[] = [{ key: 'userId', label: 'User ID', kind: 'string', required: shape.identity === 'user', help: IDENTITY_HELP.userId }];
  if (shape.identity === 'user-or-anonymous') fields.push({ key: 'anonymousId', label: 'Anonymous ID', kind: 'string', required: false, help: IDENTITY_HELP.anonymousId });
  for (const f of [...shape.fields, ...shape.extras]) fields.push({ key: f.from[0] ?? f.out, label: f.label, kind: f.kind, required: f.required, help: f.help });
  if (type !== 'delete') fields.push({ key: 'context', label: 'Context', kind: 'object', required: false, help: 'Where the call came from: ip, library, page, device…' });
  fields.push({ key: 'timestamp', label: 'Timestamp', kind: 'string', required: false, help: 'ISO 8601; empty means the time it is received.' });
  return fields;
}

export interface FieldProblem {
  /** The form field's key, or `call` for the whole call. */
  key: string;
  message: string;
}

const encoder = new TextEncoder();

/**
 * The call as the engine sizes it against the 32 KiB limit: sendMessage's call, its JSON (the type is a field of
 * its own), so that the composer and the message's detail say the same size.
 */
export function callBytes(call: Record<string, unknown>): number {
  return encoder.encode(JSON.stringify(call)).length;
}

const present = (v: unknown) => typeof v === 'string' && v.trim() !== '';

/** What the engine would refuse, found before sending; each problem names its field by its label. */
export function validateCall(type: MessageType, call: Record<string, unknown>): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const shape = MESSAGE_SHAPES[type];
  if (shape.identity === 'user' && !present(call['userId'])) problems.push({ key: 'userId', message: `User ID: is required for ${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type} call` });
  if (shape.identity === 'user-or-anonymous' && !present(call['userId']) && !present(call['anonymousId'])) {
    problems.push({ key: 'userId', message: 'User ID or Anonymous ID: one of them is required' });
  }
  for (const field of formFields(type)) {
    const value = call[field.key];
    if (field.required && field.key !== 'userId' && !present(value)) problems.push({ key: field.key, message: `${field.label}: is required` });
    if (value === undefined) continue;
    if (field.kind === 'object' && (typeof value !== 'object' || value === null || Array.isArray(value))) problems.push({ key: field.key, message: `${field.label}: must be a JSON object` });
    if (field.kind === 'string' && typeof value !== 'string') problems.push({ key: field.key, message: `${field.label}: must be a string` });
  }
  const timestamp = call['timestamp'];
  if (typeof timestamp === 'string' && timestamp.trim() !== '' && !isIsoDateTime(timestamp)) {
    problems.push({ key: 'timestamp', message: `Timestamp: "${timestamp}" is not an ISO 8601 date-time` });
  }
  const bytes = callBytes(call);
  if (bytes > LIMITS.messageBytes) problems.push({ key: 'call', message: `The call is ${formatCount(bytes)} bytes, over the ${formatCount(LIMITS.messageBytes)}-byte (32 KiB) limit` });
  return problems;
}

function isIsoDateTime(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/.test(value.trim()) && !Number.isNaN(Date.parse(value));
}

/** A server error's field (`event`, `call.properties`, `Previous ID`) as the form field it concerns. */
export function formKeyOfServerField(type: MessageType, field: string | undefined): string | null {
  if (!field) return null;
  const name = field.replace(/^call\./, '').split(/[.[]/)[0] ?? '';
  for (const f of formFields(type)) {
    if (f.key === name || f.label === name) return f.key;
  }
  const shapeField = [...MESSAGE_SHAPES[type].fields, ...MESSAGE_SHAPES[type].extras].find((f) => f.out === name || f.from.includes(name));
  return shapeField ? (shapeField.from[0] ?? null) : null;
}

/** The raw editor shows the whole call, type first; editing it may change the type. */
export function rawOf(type: MessageType, call: Record<string, unknown>): string {
  return JSON.stringify({ type, ...call }, null, 2);
}

export type RawParse = { ok: true; type: MessageType | null; call: Record<string, unknown> } | { ok: false; message: string };

export function parseRaw(text: string): RawParse {
  // Read as the API reads it: a key given twice or a 16-digit number is refused, not silently changed.
  const read = readTypedJson(text);
  if (!read.ok) return { ok: false, message: `${read.message.charAt(0).toUpperCase()}${read.message.slice(1)}` };
  const value = read.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, message: 'The call must be one JSON object' };
  const { type, ...call } = value as Record<string, unknown>;
  if (type !== undefined && !(MESSAGE_TYPES as readonly unknown[]).includes(type)) return { ok: false, message: `type: must be one of ${MESSAGE_TYPES.join(', ')}` };
  return { ok: true, type: (type as MessageType | undefined) ?? null, call };
}

/** Sets or removes (empty string) a string field. */
export function withString(call: Record<string, unknown>, key: string, value: string): Record<string, unknown> {
  const next = { ...call };
  if (value === '') delete next[key];
  else next[key] = value;
  return next;
}

/** Keys the type's form does not show but the call may carry (messageId, integrations, ...): kept as they are. */
export function keepsAcrossTypes(call: Record<string, unknown>, from: MessageType, to: MessageType): Record<string, unknown> {
  const toKeys = new Set(formFields(to).map((f) => f.key));
  const fromKeys = new Set(formFields(from).map((f) => f.key));
  const next: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(call)) if (toKeys.has(k) || !fromKeys.has(k)) next[k] = v;
  return next;
}
