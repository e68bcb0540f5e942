/** The Client's options checked once, at construction: a bad one throws a ClientError naming the field and the value. */
import { suggestKey } from '../contract/suggestKey.js';
import { describeValue } from '../contract/message/messageBody.js';
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

/** Every option ClientOptions has (types.ts), and those of `backoff`. */
const OPTION_KEYS: readonly (keyof ClientOptions)[] = [
  'endpoint', 'flushAt', 'size', 'flushAfter', 'maxRetries', 'backoff', 'timeoutMs', 'clock', 'timers', 'random', 'fetch', 'dispatcher', 'logger', 'debug', 'onError',
];
const BACKOFF_KEYS = ['initialMs', 'maxMs'];
const FUNCTION_OPTIONS = ['random', 'fetch', 'onError'] as const;
/** The options that are objects the client calls methods of (types.ts), with those methods. */
const METHOD_OPTIONS = { clock: ['now'], timers: ['setTimeout', 'clearTimeout'], logger: ['debug', 'error'], dispatcher: ['dispatch'] } as const;

/**
 * Refuses options that are not an object, a key ClientOptions does not have (`flushat`, `flushInterval` from
 * another SDK: it would be ignored and the default used), and a function option that is not a function, or an
 * object option without the methods the client calls (either would throw only when first used, far from the mistake).
 */
export function checkOptionShape(options: unknown): asserts options is ClientOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new ClientError(`Client: options must be an object (got ${describeValue(options)})`, { code: 'invalid_option', field: 'options' });
  }
  unknownKeys(options as Record<string, unknown>, OPTION_KEYS, '');
  const { backoff } = options as { backoff?: unknown };
  if (backoff !== undefined) {
    if (typeof backoff !== 'object' || backoff === null || Array.isArray(backoff)) {
      throw new ClientError(`Client: backoff must be an object {initialMs, maxMs} (got ${describeValue(backoff)})`, { code: 'invalid_option', field: 'backoff' });
    }
    unknownKeys(backoff as Record<string, unknown>, BACKOFF_KEYS, 'backoff.');
  }
  for (const field of FUNCTION_OPTIONS) {
    const value = (options as Record<string, unknown>)[field];
    if (value !== undefined && typeof value !== 'function') {
      throw new ClientError(`Client: ${field} must be a function (got ${describeValue(value)})`, { code: 'invalid_option', field });
    }
  }
  // Else `this[#clock].now is not a function` at the first call, or a batch dropped for a dispatcher that is none.
  for (const [field, methods] of Object.entries(METHOD_OPTIONS)) {
    const value = (options as Record<string, unknown>)[field];
    if (value === undefined) continue;
    const missing = methods.filter((m) => typeof (value as Record<string, unknown> | null)?.[m] !== 'function');
    if (typeof value !== 'object' || value === null || missing.length > 0) {
      const got = typeof value === 'object' && value !== null && !Array.isArray(value) ? `an object without ${missing.map((m) => `${m}()`).join(' or ')}` : describeValue(value);
      throw new ClientError(`Client: ${field} must be an object with ${methods.map((m) => `${m}()`).join(' and ')} (got ${got})`, { code: 'invalid_option', field });
    }
  }
  const { debug } = options as { debug?: unknown };
  if (debug !== undefined && typeof debug !== 'boolean') {
    throw new ClientError(`Client: debug must be true or false (got ${describeValue(debug)})`, { code: 'invalid_option', field: 'debug' });
  }
}

function unknownKeys(given: Record<string, unknown>, known: readonly string[], prefix: string): void {
  for (const key of Object.keys(given)) {
    if (known.includes(key)) continue;
    const hint = suggestKey(key, known);
    throw new ClientError(
      `Client: ${prefix}${key} is not an option${hint ? ` (did you mean ${prefix}${hint}?)` : ''}; the options are ${known.map((k) => prefix + k).join(', ')}`,
      { code: 'invalid_option', field: prefix + key },
    );
  }
}

export function endpointOf(endpoint: string): string {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new ClientError(`Client: endpoint must be an http(s) URL (got ${typeof endpoint === 'string' ? JSON.stringify(endpoint) : describeValue(endpoint)})`, { code: 'invalid_option', field: 'endpoint' });
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
    // A number is named as it is (`got 0`); anything else with its type, so `"5000"` or `"5s"` reads as a string.
    throw new ClientError(`Client: ${field} must be ${what} (got ${typeof value === 'number' ? String(value) : describeValue(value)})`, { code: 'invalid_option', field });
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
