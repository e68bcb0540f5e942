/** The Client's options checked once, at construction: a bad one throws a ClientError naming the field and the value. */
import { ClientError } from './errors.js';
import type { ClientOptions, FetchLike, FetchResponse } from './types.js';

export const DEFAULTS = {
  endpoint: 'http://127.0.0.1:4400',
  flushAt: 20,
  flushAfter: 5000,
  maxRetries: 3,
  backoffInitialMs: 100,
  backoffMaxMs: 10_000,
  timeoutMs: 15_000,
} as const;

export function endpointOf(endpoint: string): string {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new ClientError(`Client: endpoint must be an http(s) URL (got ${JSON.stringify(endpoint)})`, { code: 'invalid_option', field: 'endpoint' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ClientError(`Client: endpoint must be an http(s) URL (got ${JSON.stringify(endpoint)})`, { code: 'invalid_option', field: 'endpoint' });
  }
  if (url.search || url.hash) {
    throw new ClientError(`Client: endpoint must not carry a query or fragment (got ${JSON.stringify(endpoint)})`, { code: 'invalid_option', field: 'endpoint' });
  }
  return url.href.replace(/\/+$/, '');
}

export function flushAtOf(options: ClientOptions): number {
  const { flushAt, size } = options;
  if (flushAt !== undefined && size !== undefined && flushAt !== size) {
    throw new ClientError(`Client: size is an alias of flushAt; give one (got flushAt ${flushAt}, size ${size})`, {
      code: 'invalid_option',
      field: 'size',
    });
  }
  const field = flushAt === undefined && size !== undefined ? 'size' : 'flushAt';
  return numberOption(field, flushAt ?? size, DEFAULTS.flushAt, { min: 1, integer: true });
}

export function numberOption(
  field: string,
  value: number | undefined,
  fallback: number,
  rule: { min: number; integer?: boolean; allowInfinity?: boolean },
): number {
  if (value === undefined) return fallback;
  const ok =
    typeof value === 'number' &&
    !Number.isNaN(value) &&
    value >= rule.min &&
    (Number.isFinite(value) ? !rule.integer || Number.isInteger(value) : rule.allowInfinity === true && value > 0);
  if (!ok) {
    const what = rule.integer ? `an integer ≥ ${rule.min}` : `a number ≥ ${rule.min}`;
    throw new ClientError(`Client: ${field} must be ${what} (got ${String(value)})`, { code: 'invalid_option', field });
  }
  return value;
}

export function fetchOf(options: ClientOptions): FetchLike {
  const { dispatcher } = options;
  if (options.fetch) {
    const f = options.fetch;
    if (dispatcher === undefined) return f;
    // A custom fetch with a dispatcher: hand the dispatcher on (undici's fetch reads it from the init).
    return (url, init) => (f as (url: string, init: object) => Promise<FetchResponse>)(url, { ...init, dispatcher });
  }
  if (dispatcher !== undefined) {
    let undiciFetch: Promise<(typeof import('undici'))['fetch']> | undefined;
    return async (url, init) => {
      undiciFetch ??= import('undici').then((m) => m.fetch);
      const f = await undiciFetch;
      return f(url, { ...init, dispatcher });
    };
  }
  return (url, init) => fetch(url, init);
}
