/**
 * The local mock receiver: an HTTP and an HTTPS listener whose named endpoints
 * (`<receiverUrl>/r/<name>`) answer by their response scripts. Every request is captured to SQLite (the
 * core's own database) with its exact body bytes, the step that answered it and, for an endpoint with a
 * secret, its X-Signature verdict; each capture is pushed as a `requestCaptured` event.
 */
import { createServer as createHttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { NoInput } from '../contract/api.js';
import type { EventOf } from '../contract/events.js';
import type { Page } from '../contract/models.js';
import {
  parseReceiverRef,
  REFUSE_NEEDS_SECRET,
  receiverInputSchema,
  receiverPatchSchema,
  receiversConfigSchema,
  DEFAULT_RECEIVER_PORT,
  DEFAULT_RECEIVER_TLS_PORT,
  type CaptureAttempt,
  type CapturePage,
  type CaptureRecord,
  type ListCapturesInput,
  type ReceiverEndpoint,
  type ReceiverInput,
  type ReceiverPatch,
} from '../contract/receiver/receiver.js';
import { err, HookbenchError, ok, type Result } from '../contract/result.js';
import { parseWith } from '../contract/schemas.js';
import { receiverNameOf, unknownEndpointBody } from '../domain/receiverScript.js';
import { captureRecord, type ReceiverStore, type NewCapture, type StoredReceiver } from './receiverStore.js';
import { isWriteFailure } from '../store/integrity.js';
import { ExpectedRequests } from './expectedRequests.js';
import { hostnamesReaching, listenOn, urlHost, type Listener, type ReceiverAddresses, type ReceiverListenOptions } from './listeners.js';
import { RequestHandler } from './requestHandler.js';
import { ensureReceiverTls, type ReceiverTls } from './tlsMaterial.js';

export interface ReceiverServiceOptions {
  /**
   * The endpoints' and captures' rows, in the core's database (captures sit next to the messages they link
   * to); it keeps the newest captures and the endpoints' secrets at rest as it was made to.
   */
  store: ReceiverStore;
  /** Engine time, for arrival times and endpoint timestamps. */
  clock: { now(): number };
  /** Where the HTTPS certificate is kept (`<dataDir>/receiver-tls`). */
  dataDir: string;
  emit: (event: EventOf<'requestCaptured'> | EventOf<'catalogChanged'>) => void;
  /**
   * Requests to a path that names no endpoint are answered by this endpoint instead of a 404 (the
   * standalone `hookbench receive` answers every path).
   */
  fallbackReceiver?: string;
}

export type { ReceiverAddresses, ReceiverListenOptions } from './listeners.js';

/** What endpointForUrl says of a URL that one of the mock receiver's endpoints answers. */
export interface MockEndpointMatch {
  name: string;
  /** It answers 401 to an invalid or missing X-Signature, before its script. */
  refuseInvalidSignatures: boolean;
  /** It checks X-Signature at all (without a secret it cannot refuse anything). */
  hasSecret: boolean;
}

export class ReceiverService {
  private readonly options: ReceiverServiceOptions;
  private readonly store: ReceiverStore;
  private endpoints = new Map<string, StoredReceiver>();
  private listeners: Listener[] = [];
  private addresses: ReceiverAddresses = { url: null, tlsUrl: null };
  /** The host the listeners are bound to (while listening). */
  private host: string | null = null;
  private tls: ReceiverTls | null = null;
  private starting: Promise<ReceiverAddresses> | null = null;
  /** The rounds in flight to this receiver's URLs (engine → expectRequest). */
  private readonly expected = new ExpectedRequests();
  private readonly requests: RequestHandler;
  private readonly captureFailures = new CaptureFailureLog();

  constructor(options: ReceiverServiceOptions) {
    this.options = options;
    this.store = options.store;
    for (const r of this.store.listReceivers()) this.endpoints.set(r.name, r);
    this.requests = new RequestHandler({
      clock: options.clock,
      fallbackReceiver: options.fallbackReceiver,
      endpoint: (name) => this.endpoints.get(name),
      attemptFor: (listener, path, body, size, truncated) => this.attemptFor(listener, path, body, size, truncated),
      record: (capture, position) => this.record(capture, position),
      unknownEndpoint: (path) => unknownEndpointBody(path, [...this.endpoints.values()].sort((a, b) => a.name.localeCompare(b.name)).map((r) => this.view(r))),
    });
  }

  /**
   * Reads the endpoints again after a rolled-back transaction (a config file refused after its receivers were
   * applied: all of it or nothing, docs/behaviour.md §10). An endpoint whose script did not change keeps its
   * position in it.
   */
  reload(): void {
    const fresh = new Map<string, StoredReceiver>();
    for (const r of this.store.listReceivers()) {
      const old = this.endpoints.get(r.name);
      if (old && JSON.stringify(old.script) === JSON.stringify(r.script)) r.answered = Math.max(r.answered, old.answered);
      fresh.set(r.name, r);
    }
    this.endpoints = fresh;
  }

  // ---------------------------------------------------------------- lifecycle

  /** Starts both listeners (either may be turned off with null). Rejects with a HookbenchError naming the port. */
  start(options: ReceiverListenOptions = {}): Promise<ReceiverAddresses> {
    if (this.starting) return Promise.reject(new HookbenchError({ code: 'conflict', message: 'the receiver is already started' }));
    this.starting = this.listen(options).catch(async (e: unknown) => {
      await this.stop();
      throw e;
    });
    return this.starting;
  }

  private async listen(options: ReceiverListenOptions): Promise<ReceiverAddresses> {
    const host = options.host ?? '127.0.0.1';
    this.host = host;
    const port = options.port === undefined ? DEFAULT_RECEIVER_PORT : options.port;
    const tlsPort = options.tlsPort === undefined ? DEFAULT_RECEIVER_TLS_PORT : options.tlsPort;
    if (port !== null) {
      const server = createHttpServer((req, res) => this.requests.handle('http', req, res));
      this.listeners.push({ kind: 'http', server });
      this.addresses.url = `http://${urlHost(host)}:${await listenOn(server, host, port, 'port')}`;
    }
    if (tlsPort !== null) {
      this.tls = await ensureReceiverTls(this.options.dataDir);
      const server = createHttpsServer({ key: this.tls.key, cert: this.tls.cert }, (req, res) => this.requests.handle('https', req, res));
      this.listeners.push({ kind: 'https', server });
      this.addresses.tlsUrl = `https://${urlHost(host)}:${await listenOn(server, host, tlsPort, 'tlsPort')}`;
    }
    return { ...this.addresses };
  }

  /** Closes both listeners and every open connection (requests waiting on a delay or never answered). */
  async stop(): Promise<void> {
    this.requests.clearTimers();
    const listeners = this.listeners;
    this.listeners = [];
    this.addresses = { url: null, tlsUrl: null };
    this.host = null;
    await Promise.all(
      listeners.map(
        ({ server }) =>
          new Promise<void>((resolve) => {
            if (!server.listening) return resolve();
            server.close(() => resolve());
            server.closeAllConnections();
          }),
      ),
    );
    this.starting = null;
  }

  /** The listeners' base URLs (null when not listening). */
  urls(): ReceiverAddresses {
    return { ...this.addresses };
  }

  /** The certificate the HTTPS listener presents (after start), e.g. to name it as a destination's caFile. */
  tlsCertificate(): { certFile: string; cert: string; fingerprint256: string } | null {
    return this.tls ? { certFile: this.tls.certFile, cert: this.tls.cert, fingerprint256: this.tls.fingerprint256 } : null;
  }

  /**
   * The engine is about to send `body` to `url` for this attempt. When the URL is one of this receiver's,
   * the request that arrives there with exactly these bytes is recorded as that attempt's capture. Returns
   * what to call once the attempt has finished (null when the URL is not the receiver's).
   */
  expectRequest(url: string, body: Buffer, attempt: CaptureAttempt): (() => void) | null {
    const { url: http, tlsUrl } = this.addresses;
    const ours = (http !== null && url.startsWith(`${http}/r/`)) || (tlsUrl !== null && url.startsWith(`${tlsUrl}/r/`));
    if (!ours) return null;
    return this.expected.expect(url, body, attempt);
  }

  /** The attempt that sent these bytes to this path, taken off the list (each attempt sends one request). */
  private attemptFor(listener: 'http' | 'https', path: string, body: Buffer, size: number, truncated: boolean): CaptureAttempt | null {
    const base = listener === 'http' ? this.addresses.url : this.addresses.tlsUrl;
    return base === null ? null : this.expected.take(`${base}${path}`, body, size, truncated);
  }

  // ---------------------------------------------------------------- endpoints

  listReceivers(_input: NoInput = {}): Result<Page<ReceiverEndpoint>> {
    return ok({ items: [...this.endpoints.values()].sort((a, b) => a.name.localeCompare(b.name)).map((r) => this.view(r)), nextCursor: null });
  }

  /** Every endpoint's secret (exports redact them). */
  allSecrets(): string[] {
    return [...this.endpoints.values()].flatMap((r) => (r.secret === null ? [] : [r.secret]));
  }

  /** The receiver's secret in clear (revealSecret). */
  receiverSecret(name: string): Result<string | null> {
    const r = this.find(name);
    return r.ok ? ok(r.value.secret) : r;
  }

  getReceiver(input: { name: string }): Result<ReceiverEndpoint> {
    const r = this.find(input?.name);
    return r.ok ? ok(this.view(r.value)) : r;
  }

  createReceiver(input: ReceiverInput): Result<ReceiverEndpoint> {
    const parsed = parseWith(receiverInputSchema, input);
    if (!parsed.ok) return parsed;
    const v = parsed.value;
    if (this.endpoints.has(v.name)) return err({ code: 'conflict', field: 'name', message: `name: a receiver named "${v.name}" already exists`, value: v.name });
    const now = this.options.clock.now();
    const r: StoredReceiver = { name: v.name, secret: v.secret, refuseInvalidSignatures: v.refuseInvalidSignatures, script: v.script, answered: 0, createdAt: now, updatedAt: now };
    this.store.insertReceiver(r);
    this.endpoints.set(r.name, r);
    this.options.emit({ type: 'catalogChanged', catalog: 'receivers' });
    return ok(this.view(r));
  }

  /** A new script starts at its first step (so does `rewind: true`); a rename carries the captures along. */
  updateReceiver(input: { name: string; patch: ReceiverPatch }): Result<ReceiverEndpoint> {
    const current = this.find(input?.name);
    if (!current.ok) return current;
    const parsed = parseWith(receiverPatchSchema, input.patch ?? {}, ['patch']);
    if (!parsed.ok) return parsed;
    const p = parsed.value;
    const old = current.value;
    if (p.name !== undefined && p.name !== old.name && this.endpoints.has(p.name)) {
      return err({ code: 'conflict', field: 'patch.name', message: `patch.name: a receiver named "${p.name}" already exists`, value: p.name });
    }
    const scriptChanged = p.script !== undefined && JSON.stringify(p.script) !== JSON.stringify(old.script);
    const secret = p.secret !== undefined ? p.secret : old.secret;
    const refuseInvalidSignatures = p.refuseInvalidSignatures ?? old.refuseInvalidSignatures;
    if (refuseInvalidSignatures && secret === null) {
      // Name the field the patch changed: turning the option on, or taking the secret away from under it.
      const field = p.refuseInvalidSignatures ? 'patch.refuseInvalidSignatures' : 'patch.secret';
      const message =
        field === 'patch.secret'
          ? `${field}: "${old.name}" refuses invalid signatures, so it cannot be left without a secret: set refuseInvalidSignatures to false in the same patch`
          : `${field}: ${REFUSE_NEEDS_SECRET}`;
      return err({ code: 'invalid_input', field, message });
    }
    const next: StoredReceiver = {
      name: p.name ?? old.name,
      secret,
      refuseInvalidSignatures,
      script: p.script ?? old.script,
      answered: scriptChanged || p.rewind ? 0 : old.answered,
      createdAt: old.createdAt,
      updatedAt: this.options.clock.now(),
    };
    this.store.updateReceiver(old.name, next);
    this.endpoints.delete(old.name);
    this.endpoints.set(next.name, next);
    this.options.emit({ type: 'catalogChanged', catalog: 'receivers' });
    return ok(this.view(next));
  }

  /** Removes the endpoint; its captures are kept (clearCaptures removes them). */
  deleteReceiver(input: { name: string }): Result<{ name: string }> {
    const current = this.find(input?.name);
    if (!current.ok) return current;
    this.store.deleteReceiver(current.value.name);
    this.endpoints.delete(current.value.name);
    this.options.emit({ type: 'catalogChanged', catalog: 'receivers' });
    return ok({ name: current.value.name });
  }

  /**
   * The `receivers` of a config file (docs/behaviour.md §10): matched by name, created or updated, others kept.
   * Everything is validated before anything changes; errors name the path (`receivers[1].script.steps[0].status`).
   */
  applyConfig(receivers: unknown, prefix: readonly PropertyKey[] = ['receivers']): Result<{ created: string[]; updated: string[]; unchanged: string[] }> {
    const parsed = parseWith(receiversConfigSchema, receivers, prefix);
    if (!parsed.ok) return parsed;
    const seen = new Map<string, number>();
    for (const [i, r] of parsed.value.entries()) {
      const first = seen.get(r.name);
      if (first !== undefined) {
        const field = `${pathOf(prefix)}[${i}].name`;
        return err({ code: 'invalid_config', field, message: `${field}: "${r.name}" is given twice (first at index ${first})`, value: r.name });
      }
      seen.set(r.name, i);
    }
    const result = { created: [] as string[], updated: [] as string[], unchanged: [] as string[] };
    this.store.transaction(() => {
      for (const r of parsed.value) {
        const old = this.endpoints.get(r.name);
        if (!old) {
          const created = this.createReceiver(r);
          if (!created.ok) throw new HookbenchError(created.error); // validated above: cannot happen
          result.created.push(r.name);
        } else if (old.secret === r.secret && old.refuseInvalidSignatures === r.refuseInvalidSignatures && JSON.stringify(old.script) === JSON.stringify(r.script)) {
          result.unchanged.push(r.name);
        } else {
          const updated = this.updateReceiver({ name: r.name, patch: { secret: r.secret, refuseInvalidSignatures: r.refuseInvalidSignatures, script: r.script } });
          if (!updated.ok) throw new HookbenchError(updated.error);
          result.updated.push(r.name);
        }
      }
    });
    return ok(result);
  }

  /** The URL of an endpoint on the HTTP or HTTPS listener: what `receiver:<name>` / `receiver+tls:<name>` mean. */
  urlFor(name: string, options: { tls?: boolean } = {}): Result<string> {
    const r = this.find(name);
    if (!r.ok) return r;
    const base = options.tls ? this.addresses.tlsUrl : this.addresses.url;
    if (base === null) {
      const which = options.tls ? 'HTTPS' : 'HTTP';
      return err({ code: 'conflict', field: 'name', message: `the receiver's ${which} listener is not running, so "${name}" has no ${which} URL` });
    }
    return ok(`${base}/r/${encodeURIComponent(r.value.name)}`);
  }

  /** A webhook URL with `receiver:<name>` / `receiver+tls:<name>` resolved; any other URL as given. */
  resolveWebhookUrl(url: string): Result<string> {
    const ref = parseReceiverRef(url);
    return ref ? this.urlFor(ref.name, { tls: ref.tls }) : ok(url);
  }

  /**
   * Is `url` one of this receiver's endpoints, and would it refuse a forged request? True for
   * `receiver:<name>` / `receiver+tls:<name>`, and for an http(s) URL on this receiver's listener (its
   * port, for that scheme, and a host name that reaches it: localhost, its loopback address) whose path
   * names an endpoint as the receiver reads it (`/r/<name>`, anything after it too). Null otherwise,
   * also when the receiver is not listening or the path names no endpoint.
   */
  endpointForUrl(url: string): MockEndpointMatch | null {
    const ref = parseReceiverRef(url);
    if (ref) return this.matchOf(this.endpoints.get(ref.name));
    let parsed: URL;
    try {
      parsed = new URL(url.trim());
    } catch {
      return null;
    }
    const base = parsed.protocol === 'http:' ? this.addresses.url : parsed.protocol === 'https:' ? this.addresses.tlsUrl : null;
    if (base === null || this.host === null) return null;
    const portOf = (u: URL) => u.port || (u.protocol === 'https:' ? '443' : '80');
    if (portOf(parsed) !== portOf(new URL(base))) return null;
    if (!hostnamesReaching(this.host).includes(parsed.hostname.toLowerCase())) return null;
    const named = receiverNameOf(`${parsed.pathname}${parsed.search}`);
    const fallback = this.options.fallbackReceiver;
    // As the request handler picks the endpoint: the named one, else the fallback that answers every path.
    return this.matchOf((named !== null ? this.endpoints.get(named) : undefined) ?? (fallback !== undefined ? this.endpoints.get(fallback) : undefined));
  }

  private matchOf(r: StoredReceiver | undefined): MockEndpointMatch | null {
    return r ? { name: r.name, refuseInvalidSignatures: r.refuseInvalidSignatures, hasSecret: r.secret !== null } : null;
  }

  private find(name: unknown): Result<StoredReceiver> {
    if (typeof name !== 'string' || name === '') return err({ code: 'invalid_input', field: 'name', message: 'name: give the receiver\'s name' });
    const r = this.endpoints.get(name);
    if (r) return ok(r);
    const known = [...this.endpoints.keys()].sort();
    return err({
      code: 'not_found',
      field: 'name',
      message: `no receiver named "${name}" (${known.length ? `known: ${known.join(', ')}` : 'none is defined'})`,
      value: name,
    });
  }

  private view(r: StoredReceiver): ReceiverEndpoint {
    const path = `/r/${encodeURIComponent(r.name)}`;
    return {
      name: r.name,
      secret: r.secret,
      refuseInvalidSignatures: r.refuseInvalidSignatures,
      script: r.script,
      answered: r.answered,
      url: this.addresses.url === null ? null : `${this.addresses.url}${path}`,
      tlsUrl: this.addresses.tlsUrl === null ? null : `${this.addresses.tlsUrl}${path}`,
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
    };
  }

  // ---------------------------------------------------------------- captures

  /**
   * Newest first, in pages of `limit` (1 to 1000, default 50), with the retention: how many captures are
   * kept at most, and how many older ones were removed to keep within it.
   */
  listCaptures(input: ListCapturesInput = {}): Result<CapturePage> {
    const limit = input.limit ?? 50;
    let beforeId: number | undefined;
    if (input.cursor !== undefined && input.cursor !== null) {
      beforeId = Number(input.cursor);
      if (!Number.isSafeInteger(beforeId)) {
        return err({ code: 'invalid_input', field: 'cursor', message: `cursor: ${JSON.stringify(input.cursor)} is not a cursor from this list` });
      }
    }
    const items = this.store.listCaptures({ receiver: input.receiver, messageId: input.messageId, beforeId, limit: limit + 1 });
    const more = items.length > limit;
    if (more) items.pop();
    return ok({ items, nextCursor: more ? String(items.at(-1)!.id) : null, ...this.store.retention() });
  }

  /** The captures of the requests the engine's attempts of one message sent, oldest first. */
  capturesOfMessage(messageRef: number): CaptureRecord[] {
    return this.store.capturesOfMessage(messageRef);
  }

  getCapture(input: { id: number }): Result<CaptureRecord> {
    const id = input?.id;
    if (typeof id !== 'number' || !Number.isInteger(id)) return err({ code: 'invalid_input', field: 'id', message: `id: must be a capture id, a whole number (got ${JSON.stringify(id)})` });
    const capture = this.store.getCapture(id);
    return capture ? ok(capture) : err({ code: 'not_found', field: 'id', message: `no capture with id ${id}`, value: id });
  }

  /** Deletes the captures of one endpoint name, or all of them. */
  clearCaptures(input: { receiver?: string } = {}): Result<{ deleted: number }> {
    const receiver = input?.receiver;
    if (receiver !== undefined && typeof receiver !== 'string') return err({ code: 'invalid_input', field: 'receiver', message: `receiver: must be a string (got ${typeof receiver})` });
    return ok({ deleted: this.store.clearCaptures(receiver) });
  }

  // ---------------------------------------------------------------- requests (requestHandler.ts)

  private record(capture: NewCapture, position: { name: string; answered: number } | null): void {
    let id: number;
    try {
      id = this.store.insertCapture(capture, position);
    } catch (e) {
      // The request is still answered by its script; only the record is lost (e.g. the database closed first,
      // or the disk is full: one line then, and a count, not a line per request).
      if (isWriteFailure(e)) this.captureFailures.failed((e as Error).message);
      else console.error('hookbench receiver: could not store a capture', e);
      return;
    }
    this.captureFailures.stored();
    try {
      this.options.emit({ type: 'requestCaptured', capture: captureRecord(id, capture) });
    } catch (e) {
      console.error('hookbench receiver: requestCaptured listener failed', e);
    }
  }


}

/** How often, at most, a count of captures still not stored is said. */
export const CAPTURE_FAILURE_REPEAT_MS = 60_000;

/**
 * Captures that could not be stored (a full disk fails every request alike): the first failure in one line,
 * then at most one line a minute with the count since, and one line when a capture is stored again.
 */
export class CaptureFailureLog {
  private failing: { since: number; total: number; unsaid: number; saidAt: number } | null = null;
  private readonly log: { line(text: string): void; now(): number };

  /** `log` says a line and reads the wall clock that paces repeats (tests give their own). */
  constructor(log?: { line(text: string): void; now(): number }) {
    this.log = log ?? { line: (text) => console.error(text), now: Date.now };
  }

  failed(why: string): void {
    const now = this.log.now();
    const f = this.failing;
    if (!f) {
      this.failing = { since: now, total: 1, unsaid: 0, saidAt: now };
      this.log.line(`hookbench receiver: could not store a capture: ${why}; requests are still answered, and further failures are counted (a line a minute at most)`);
      return;
    }
    f.total++;
    f.unsaid++;
    if (now - f.saidAt < CAPTURE_FAILURE_REPEAT_MS) return;
    this.log.line(`hookbench receiver: could not store a capture: ${why} (${f.unsaid} more since the last line, ${f.total} since ${new Date(f.since).toISOString()})`);
    f.unsaid = 0;
    f.saidAt = now;
  }

  stored(): void {
    const f = this.failing;
    if (!f) return;
    this.failing = null;
    this.log.line(`hookbench receiver: captures are stored again; ${f.total} request${f.total === 1 ? ' was' : 's were'} answered without being captured since ${new Date(f.since).toISOString()}`);
  }
}

function pathOf(prefix: readonly PropertyKey[]): string {
  return prefix.map((k, i) => (typeof k === 'number' ? `[${k}]` : i === 0 ? String(k) : `.${String(k)}`)).join('');
}
