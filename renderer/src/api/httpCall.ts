/**
 * One command over HTTP (`POST /api/<name>` with the Bearer token, answered by a Result) and the event
 * socket's address: what the HTTP transport and the page's first requests (firstRequests.ts) both use.
 */
import type { ApiError, Result } from '../../../main/contract/result';

/** Never throws: a server out of reach, or an answer that is not a Result, is an error value. */
export async function postCommand(fetchImpl: typeof fetch, baseUrl: string, token: string, name: string, input: unknown): Promise<Result<unknown>> {
  let response: Response;
  try {
    response = await fetchImpl(new URL(`api/${encodeURIComponent(name)}`, ensureSlash(baseUrl)), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(input ?? {}),
    });
  } catch (e) {
    return unreachable(`cannot reach Hookbench at ${baseUrl} (${e instanceof Error ? e.message : String(e)}); is hookbench serve still running?`);
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    return unreachable(`${name}: the server answered ${response.status} without a JSON body`);
  }
  if (isResult(body)) return body;
  return unreachable(`${name}: the server answered ${response.status} with an unexpected body`);
}

/** The event socket of the server at `baseUrl`: `ws(s)://…/api/events?token=…`. */
export function eventsUrl(baseUrl: string, token: string): string {
  const url = new URL('api/events', ensureSlash(baseUrl));
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.searchParams.set('token', token);
  return url.toString();
}

function ensureSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}

function unreachable(message: string): Result<unknown> {
  const error: ApiError = { code: 'internal', message };
  return { ok: false, error };
}

function isResult(value: unknown): value is Result<unknown> {
  if (typeof value !== 'object' || value === null || !('ok' in value)) return false;
  if (value.ok === true) return 'value' in value;
  return value.ok === false && 'error' in value && typeof value.error === 'object' && value.error !== null;
}
