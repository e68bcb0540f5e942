/**
 * The local mock receiver: an HTTP and an HTTPS listener whose named endpoints
 * (`<receiverUrl>/r/<name>`) answer by their response scripts. Every request is captured to SQLite (the
 * core's own database) with its exact body bytes, the step that answered it and, for an endpoint with a
 * secret, its X-Signature verdict; each capture is pushed as a `requestCaptured` event.
 *
 * This is the face the core and the commands use; its parts are in their own files: the listeners
 * (listeners.ts), the endpoints (receiverEndpoints.ts), the captures (receiverCaptures.ts), one request
 * answered (requestHandler.ts), and the engine's rounds the receiver is told to expect (expectedRequests.ts).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { CommandParsed } from '../contract/dispatch.js';
import type { EventOf } from '../contract/events.js';
import type { Page } from '../contract/messages.js';
import { parseReceiverRef, type CaptureAttempt, type CapturePage, type CaptureRecord, type ReceiverEndpoint } from '../contract/receiver/receiver.js';
import { err, ok, type Result } from '../contract/result.js';
import { receiverNameOf, unknownEndpointBody } from '../domain/receiverScript.js';
import { ExpectedRequests, type Sender } from './expectedRequests.js';
import { hostnamesReaching, ReceiverListeners, type ReceiverAddresses, type ReceiverListenOptions } from './listeners.js';
import { ReceiverCaptures } from './receiverCaptures.js';
import { ReceiverEndpoints } from './receiverEndpoints.js';
import type { ReceiverStore, StoredReceiver } from './receiverStore.js';
import { RequestHandler } from './requestHandler.js';

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
  emit: (event: EventOf<'requestCaptured'> | EventOf<'captureUpdated'> | EventOf<'catalogChanged'>) => void;
  /**
   * Requests to a path that names no endpoint are answered by this endpoint instead of a 404 (the
   * standalone `hookbench receive` answers every path).
   */
  fallbackReceiver?: string;
  /** The destinations whose webhooks name this endpoint (`receiver:<name>`, `receiver+tls:<name>`): a rename would strand them. */
  destinationsUsing?: (name: string) => string[];
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
  private readonly endpoints: ReceiverEndpoints;
  private readonly captures: ReceiverCaptures;
  private readonly listening: ReceiverListeners;
  /** The rounds in flight to this receiver's URLs (engine → expectRequest). */
  private readonly expected = new ExpectedRequests();
  private readonly fallbackReceiver: string | undefined;

  constructor(options: ReceiverServiceOptions) {
    this.fallbackReceiver = options.fallbackReceiver;
    this.endpoints = new ReceiverEndpoints({
      store: options.store,
      clock: options.clock,
      emit: options.emit,
      addresses: () => this.listening.current,
      destinationsUsing: options.destinationsUsing ?? (() => []),
    });
    this.captures = new ReceiverCaptures(options.store, options.emit);
    const requests = new RequestHandler({
      clock: options.clock,
      fallbackReceiver: options.fallbackReceiver,
      endpoint: (name) => this.endpoints.get(name),
      senderOf: (listener, path, body, size, truncated, headers) => this.senderOf(listener, path, body, size, truncated, headers),
      record: (capture, position) => this.captures.record(capture, position),
      clientClosed: (id, afterMs) => this.captures.clientClosed(id, afterMs),
      unknownEndpoint: (path) => unknownEndpointBody(path, this.endpoints.sorted().map((r) => this.endpoints.view(r))),
    });
    this.listening = new ReceiverListeners({ dataDir: options.dataDir, handle: (listener, req, res) => requests.handle(listener, req, res), dropWaiting: () => requests.clearTimers() });
  }

  /** Reads the endpoints again after a rolled-back transaction (receiverEndpoints.ts). */
  reload(): void {
    this.endpoints.reload();
  }

  // ---------------------------------------------------------------- lifecycle (listeners.ts)

  /** Starts both listeners (either may be turned off with null). Rejects with a HookbenchError naming the port. */
  start(options: ReceiverListenOptions = {}): Promise<ReceiverAddresses> {
    return this.listening.start(options);
  }

  /** Closes both listeners and every open connection (requests waiting on a delay or never answered). */
  stop(): Promise<void> {
    return this.listening.stop();
  }

  /** The listeners' base URLs (null when not listening). */
  urls(): ReceiverAddresses {
    return this.listening.urls();
  }

  /** The certificate the HTTPS listener presents (after start), e.g. to name it as a destination's caFile. */
  tlsCertificate(): { certFile: string; cert: string; fingerprint256: string } | null {
    return this.listening.tlsCertificate();
  }

  /**
   * The engine is about to send `body` with `headers` to `url` for this attempt. When the URL is one of this
   * receiver's, the request that arrives there with exactly these bytes and headers is recorded as that attempt's capture. Returns
   * what to call once the attempt has finished (null when the URL is not the receiver's).
   */
  expectRequest(url: string, body: string, attempt: CaptureAttempt, headers: () => Record<string, string>): (() => void) | null {
    return this.ours(url) ? this.expected.expect(url, Buffer.from(body, 'utf8'), { attempt, sentBy: null }, headers()) : null;
  }

  /** hookbench check is about to send `body` to `url` directly (not through the engine); as expectRequest. */
  expectCheckRequest(url: string, body: Uint8Array): (() => void) | null {
    return this.ours(url) ? this.expected.expect(url, Buffer.from(body), { attempt: null, sentBy: 'check' }) : null;
  }

  /** expectCheckRequest for a request of the check's capacity load: answered as any, not captured (ExpectedRequests' Sender). */
  expectCheckLoad(url: string, body: Uint8Array): (() => void) | null {
    return this.ours(url) ? this.expected.expect(url, Buffer.from(body), { attempt: null, sentBy: 'check', load: true }) : null;
  }

  private ours(url: string): boolean {
    const { url: http, tlsUrl } = this.listening.current;
    return (http !== null && url.startsWith(`${http}/r/`)) || (tlsUrl !== null && url.startsWith(`${tlsUrl}/r/`));
  }

  /** Who sent these bytes to this path, taken off the list (each attempt sends one request). */
  private senderOf(listener: 'http' | 'https', path: string, body: Buffer, size: number, truncated: boolean, headers: IncomingHttpHeaders): Sender | null {
    const { url, tlsUrl } = this.listening.current;
    const base = listener === 'http' ? url : tlsUrl;
    return base === null ? null : this.expected.take(`${base}${path}`, body, size, truncated, headers);
  }

  // ---------------------------------------------------------------- endpoints (receiverEndpoints.ts)

  listReceivers(): Result<Page<ReceiverEndpoint>> {
    return this.endpoints.listReceivers();
  }

  /** Every endpoint's secret (exports redact them). */
  allSecrets(): string[] {
    return this.endpoints.allSecrets();
  }

  /** The receiver's secret in clear (revealSecret). */
  receiverSecret(name: string): Result<string | null> {
    return this.endpoints.receiverSecret(name);
  }

  getReceiver(input: CommandParsed<'getReceiver'>): Result<ReceiverEndpoint> {
    return this.endpoints.getReceiver(input);
  }

  createReceiver(input: CommandParsed<'createReceiver'>): Result<ReceiverEndpoint> {
    return this.endpoints.createReceiver(input);
  }

  /**
   * A new script starts at its first step (so does `rewind: true`); a rename carries the captures along, and is
   * refused while a destination names the endpoint.
   */
  updateReceiver(input: CommandParsed<'updateReceiver'>): Result<ReceiverEndpoint> {
    return this.endpoints.updateReceiver(input);
  }

  /** Removes the endpoint; its captures are kept (clearCaptures removes them). */
  deleteReceiver(input: CommandParsed<'deleteReceiver'>): Result<{ name: string }> {
    return this.endpoints.deleteReceiver(input);
  }

  /** The `receivers` of a config file (docs/behaviour.md §10), validated whole before anything changes. */
  applyConfig(receivers: unknown, prefix?: readonly PropertyKey[]): Result<{ created: string[]; updated: string[]; unchanged: string[] }> {
    return this.endpoints.applyConfig(receivers, prefix);
  }

  // ---------------------------------------------------------------- URLs

  /** The URL of an endpoint on the HTTP or HTTPS listener: what `receiver:<name>` / `receiver+tls:<name>` mean. */
  urlFor(name: string, options: { tls?: boolean } = {}): Result<string> {
    const r = this.endpoints.find(name);
    if (!r.ok) return r;
    const { url, tlsUrl } = this.listening.current;
    const base = options.tls ? tlsUrl : url;
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
    const { url: http, tlsUrl } = this.listening.current;
    const base = parsed.protocol === 'http:' ? http : parsed.protocol === 'https:' ? tlsUrl : null;
    const host = this.listening.host;
    if (base === null || host === null) return null;
    const portOf = (u: URL) => u.port || (u.protocol === 'https:' ? '443' : '80');
    if (portOf(parsed) !== portOf(new URL(base))) return null;
    if (!hostnamesReaching(host).includes(parsed.hostname.toLowerCase())) return null;
    const named = receiverNameOf(`${parsed.pathname}${parsed.search}`);
    const fallback = this.fallbackReceiver;
    // As the request handler picks the endpoint: the named one, else the fallback that answers every path.
    return this.matchOf((named !== null ? this.endpoints.get(named) : undefined) ?? (fallback !== undefined ? this.endpoints.get(fallback) : undefined));
  }

  private matchOf(r: StoredReceiver | undefined): MockEndpointMatch | null {
    return r ? { name: r.name, refuseInvalidSignatures: r.refuseInvalidSignatures, hasSecret: r.secret !== null } : null;
  }

  // ---------------------------------------------------------------- captures (receiverCaptures.ts)

  /** Newest first, in pages of `limit` (1 to 1000, default 50), with the captures' retention. */
  listCaptures(input?: CommandParsed<'listCaptures'>): Result<CapturePage> {
    return this.captures.listCaptures(input);
  }

  /** The captures of the requests the engine's attempts of one message sent, oldest first. */
  capturesOfMessage(messageRef: number): CaptureRecord[] {
    return this.captures.capturesOfMessage(messageRef);
  }

  getCapture(input: CommandParsed<'getCapture'>): Result<CaptureRecord> {
    return this.captures.getCapture(input);
  }

  /** Deletes the captures of one endpoint name, or all of them. */
  clearCaptures(input?: CommandParsed<'clearCaptures'>): Result<{ deleted: number }> {
    return this.captures.clearCaptures(input);
  }
}
