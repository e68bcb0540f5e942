/** What the client reads of a failed request: the answer's body, the server's error in it, a timeout. */
import type { ServerError } from './errors.js';

export function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export function serverErrorOf(body: unknown): ServerError | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const e = (body as { error?: unknown }).error;
  if (typeof e !== 'object' || e === null) return undefined;
  const r = e as Record<string, unknown>;
  const out: ServerError = {};
  if (typeof r['code'] === 'string') out.code = r['code'];
  if (typeof r['message'] === 'string') out.message = r['message'];
  if (typeof r['index'] === 'number') out.index = r['index'];
  if (typeof r['field'] === 'string') out.field = r['field'];
  if (typeof r['limit'] === 'number') out.limit = r['limit'];
  return out;
}

export function isTimeout(e: unknown): boolean {
  return e instanceof Error && e.name === 'TimeoutError';
}
