/**
 * The connections webhook requests go out on: undici pools per trust configuration (and per clock jump),
 * proxies from the environment, and the per-origin gate that caps requests in flight.
 */
import { rootCertificates } from 'node:tls';
import { createRequire } from 'node:module';
import type * as Undici from 'undici';
import type { Dispatcher } from 'undici';
import type { Destination } from '../contract/destinations.js';
import { FILE_LIMITS, readBoundedText } from '../platform/boundedFile.js';
import { observeWire } from './wireHeaders.js';

/**
 * undici (slow to load) is loaded with the first pool, on the thread that sends: the engine's own thread
 * only signs rounds (prepareRequest), and a CLI command that sends nothing never loads it.
 */
let undici: typeof Undici | null = null;
const loadUndici = (): typeof Undici => (undici ??= createRequire(import.meta.url)('undici') as typeof Undici);

/** docs/behaviour.md §2: at most 16 concurrent connections per origin. */
export const CONNECTIONS_PER_ORIGIN = 16;
/**
 * The cap for a clock jump's attempts (docs/behaviour.md §5): they fell due over hours of engine time and
 * are played at once, so queueing them behind the live cap would make a jump as slow as its message count.
 * As many as the engine ever has in flight.
 */
export const JUMP_CONNECTIONS_PER_ORIGIN = 2_048;

/** `http://host:port/path?q` → the parts undici's dispatch takes, parsed once per URL. */
const urlParts = new Map<string, { origin: string; path: string }>();
export function partsOf(url: string): { origin: string; path: string } {
  let parts = urlParts.get(url);
  if (!parts) {
    const u = new URL(url);
    parts = { origin: u.origin, path: `${u.pathname}${u.search}` };
    if (urlParts.size > 10_000) urlParts.clear();
    urlParts.set(url, parts);
  }
  return parts;
}

const PROXY_VARS = ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy'];

/**
 * At most `limit` requests in flight per origin. Requests wait here, not in undici's queue, so that the
 * timeout measures the request itself ("from send to response headers"), never time spent waiting for a
 * pooled connection.
 */
export class OriginGate {
  private readonly slots = new Map<string, { active: number; waiting: (() => void)[] }>();

  constructor(private readonly limit: number) {}

  /**
   * Calls `run` with a release function once a slot for the URL's origin is free: at once when one is, else
   * when a request before it releases its own.
   */
  enter(url: string, run: (release: () => void) => void): void {
    const { origin } = partsOf(url);
    let slot = this.slots.get(origin);
    if (!slot) {
      slot = { active: 0, waiting: [] };
      this.slots.set(origin, slot);
    }
    const s = slot;
    const release = () => {
      const next = s.waiting.shift();
      if (next) next();
      else if (--s.active === 0) this.slots.delete(origin);
    };
    if (s.active < this.limit) {
      s.active++;
      run(release);
      return;
    }
    s.waiting.push(() => run(release));
  }
}

/**
 * Dispatchers per trust configuration: destinations without a caFile share one pool (16 connections per
 * origin across all of them); a caFile gets its own, trusting the system roots plus that file. A clock
 * jump's attempts have pools and a gate of their own, with the larger JUMP_CONNECTIONS_PER_ORIGIN.
 */
export class Dispatchers {
  private readonly pools = new Map<string, Dispatcher>();
  readonly gate = new OriginGate(CONNECTIONS_PER_ORIGIN);
  readonly jumpGate = new OriginGate(JUMP_CONNECTIONS_PER_ORIGIN);

  constructor(
    private readonly injected: Dispatcher | undefined,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {
    observeWire();
  }

  for(destination: Pick<Destination, 'caFile'>, jump = false): Dispatcher {
    if (this.injected) return this.injected;
    const key = `${jump ? 'jump:' : ''}${destination.caFile ?? ''}`;
    let pool = this.pools.get(key);
    if (!pool) {
      const connect = destination.caFile
        ? { ca: [...rootCertificates, readBoundedText(destination.caFile, FILE_LIMITS.caFile)], rejectUnauthorized: true }
        : { rejectUnauthorized: true };
      const options = {
        connections: jump ? JUMP_CONNECTIONS_PER_ORIGIN : CONNECTIONS_PER_ORIGIN,
        pipelining: 1,
        // Disabled: the deadline is the per-attempt timer in sendToWebhook (undici's timers tick coarsely).
        headersTimeout: 0,
        bodyTimeout: 0,
        connect,
      };
      const env = this.env;
      const httpProxy = env['HTTP_PROXY'] ?? env['http_proxy'];
      const httpsProxy = env['HTTPS_PROXY'] ?? env['https_proxy'];
      const noProxy = env['NO_PROXY'] ?? env['no_proxy'];
      const { Agent, EnvHttpProxyAgent } = loadUndici();
      pool = PROXY_VARS.some((v) => env[v])
        ? new EnvHttpProxyAgent({
            ...options,
            ...(httpProxy ? { httpProxy } : {}),
            ...(httpsProxy ? { httpsProxy } : {}),
            ...(noProxy ? { noProxy } : {}),
            requestTls: connect,
            proxyTls: { rejectUnauthorized: true },
            // As curl does: http:// targets in absolute form through the proxy, https:// through a CONNECT tunnel.
            proxyTunnel: false,
          })
        : new Agent(options);
      this.pools.set(key, pool);
    }
    return pool;
  }

  /** Forget a trust configuration (its caFile changed). */
  invalidate(caFile: string | null): void {
    for (const key of [caFile ?? '', `jump:${caFile ?? ''}`]) {
      const pool = this.pools.get(key);
      if (pool) {
        this.pools.delete(key);
        void pool.close().catch(() => undefined);
      }
    }
  }

  async close(): Promise<void> {
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map((p) => p.destroy().catch(() => undefined)));
  }
}
