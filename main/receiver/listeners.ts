/**
 * The mock receiver's two listeners, HTTP and HTTPS: started and stopped together, where they listen, and
 * the errors that name the port a listener could not take.
 */
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { isIPv6, type AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { DEFAULT_RECEIVER_PORT, DEFAULT_RECEIVER_TLS_PORT } from '../contract/receiver/receiver.js';
import { HookbenchError, type ApiError } from '../contract/result.js';
import { clientLeft, connectionTable, CONNECTION_LIMITS, endWithJson, parserRefusal } from '../platform/connections.js';

type ConnectionLimits = { [K in keyof typeof CONNECTION_LIMITS]: number };
import { ensureReceiverTls, type ReceiverTls } from './tlsMaterial.js';

export interface ReceiverListenOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** HTTP port (default 4410; 0 picks a free one; null: no HTTP listener). */
  port?: number | null;
  /** HTTPS port (default 4443; 0 picks a free one; null: no HTTPS listener). */
  tlsPort?: number | null;
}

export interface ReceiverAddresses {
  /** `http://127.0.0.1:4410`, the receiverUrl; null without an HTTP listener. */
  url: string | null;
  /** `https://127.0.0.1:4443`; null without an HTTPS listener. */
  tlsUrl: string | null;
}

export interface Listener {
  kind: 'http' | 'https';
  server: Server;
  /**
   * Every TCP connection of the HTTPS listener: one still in its TLS handshake is no HTTP connection yet, so
   * closeAllConnections does not see it, and stop() would wait for its handshake's deadline.
   */
  sockets?: Set<Duplex>;
}

export interface ReceiverListenersOptions {
  /** Where the HTTPS certificate is kept (`<dataDir>/receiver-tls`). */
  dataDir: string;
  /** Answers one request (requestHandler.ts). */
  handle: (listener: 'http' | 'https', req: IncomingMessage, res: ServerResponse) => void;
  /** Drops the answers still waiting on a delay: the listeners are stopping. */
  dropWaiting: () => void;
  /** Each listener's connection cap and how long a request may take to arrive (tests lower them). */
  connectionLimits?: Partial<ConnectionLimits>;
}

/** Both listeners, started together (either may be turned off) and stopped with every open connection. */
export class ReceiverListeners {
  private listeners: Listener[] = [];
  private addresses: ReceiverAddresses = { url: null, tlsUrl: null };
  private boundTo: string | null = null;
  private tls: ReceiverTls | null = null;
  private starting: Promise<ReceiverAddresses> | null = null;

  constructor(private readonly options: ReceiverListenersOptions) {}

  /** The host the listeners are bound to (null when not listening). */
  get host(): string | null {
    return this.boundTo;
  }

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
    this.boundTo = host;
    const port = options.port === undefined ? DEFAULT_RECEIVER_PORT : options.port;
    const tlsPort = options.tlsPort === undefined ? DEFAULT_RECEIVER_TLS_PORT : options.tlsPort;
    const limits = { ...CONNECTION_LIMITS, ...this.options.connectionLimits };
    const timeouts = { connectionsCheckingInterval: 1000, headersTimeout: limits.headersTimeoutMs, requestTimeout: limits.requestTimeoutMs };
    if (port !== null) {
      const connections = connectionTable(limits.max, limits.requestTimeoutMs);
      const server = createHttpServer(timeouts, (req, res) => {
        connections.busy(req, res);
        this.options.handle('http', req, res);
      });
      guard(server, 'connection', connections, limits);
      this.listeners.push({ kind: 'http', server });
      this.addresses.url = `http://${urlHost(host)}:${await listenOn(server, host, port, 'port')}`;
    }
    if (tlsPort !== null) {
      this.tls = await ensureReceiverTls(this.options.dataDir);
      const connections = connectionTable(limits.max, limits.requestTimeoutMs);
      // A connection counts once its handshake is done; one that never finishes it is cut at the headers' deadline.
      const server = createHttpsServer({ key: this.tls.key, cert: this.tls.cert, handshakeTimeout: limits.headersTimeoutMs, ...timeouts }, (req, res) => {
        connections.busy(req, res);
        this.options.handle('https', req, res);
      });
      guard(server, 'secureConnection', connections, limits);
      const sockets = new Set<Duplex>();
      server.on('connection', (socket: Duplex) => {
        sockets.add(socket);
        socket.once('close', () => sockets.delete(socket));
      });
      this.listeners.push({ kind: 'https', server, sockets });
      this.addresses.tlsUrl = `https://${urlHost(host)}:${await listenOn(server, host, tlsPort, 'tlsPort')}`;
    }
    return { ...this.addresses };
  }

  /** Closes both listeners and every open connection (requests waiting on a delay or never answered). */
  async stop(): Promise<void> {
    this.options.dropWaiting();
    const listeners = this.listeners;
    this.listeners = [];
    this.addresses = { url: null, tlsUrl: null };
    this.boundTo = null;
    await Promise.all(
      listeners.map(
        ({ server, sockets }) =>
          new Promise<void>((resolve) => {
            if (!server.listening) return resolve();
            server.close(() => resolve());
            server.closeAllConnections();
            for (const socket of sockets ?? []) socket.destroy();
          }),
      ),
    );
    this.starting = null;
  }

  /** The listeners' base URLs (null when not listening). */
  urls(): ReceiverAddresses {
    return { ...this.addresses };
  }

  /** The same, not copied: what each request and each round to the receiver reads. */
  get current(): Readonly<ReceiverAddresses> {
    return this.addresses;
  }

  /** The certificate the HTTPS listener presents (after start), e.g. to name it as a destination's caFile. */
  tlsCertificate(): { certFile: string; cert: string; fingerprint256: string } | null {
    return this.tls ? { certFile: this.tls.certFile, cert: this.tls.cert, fingerprint256: this.tls.fingerprint256 } : null;
  }
}

/**
 * The limits of serve's own port, on a receiver's listener: connections held at once (the oldest idle one
 * makes room), a request's headers and body cut when they do not arrive in time, and what the parser refused
 * answered in words. Without them, idle sockets to the receiver used up the process's file descriptors, and
 * serve's own port with them. A request that has arrived may wait for its answer as long as its script says.
 */
function guard(server: Server, event: 'connection' | 'secureConnection', connections: ReturnType<typeof connectionTable>, limits: ConnectionLimits): void {
  server.on(event, (socket: Duplex) => connections.opened(socket));
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    const silent = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' && (socket as Duplex & { bytesRead?: number }).bytesRead === 0;
    // The HTTPS listener's handshake failures come here too (its deadline passed, bytes that are not TLS): an
    // answer written there would wait for a handshake that never comes, and the socket with it.
    const handshakeFailed = /^ERR_(TLS|SSL)_/.test(error.code ?? '');
    if (clientLeft(error, socket) || silent || handshakeFailed) return void socket.destroy();
    const refusal = parserRefusal(error, { ...limits, carrying: connections.carrying(socket), previousContentLength: connections.previousContentLength(socket) });
    endWithJson(socket, refusal.status, { error: { code: 'invalid_request', message: refusal.message, ...(refusal.limit ? { limit: refusal.limit } : {}) } });
  });
}

/** The host to put in a URL: a wildcard address is reached on loopback; IPv6 literals go in brackets. */
export function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return isIPv6(host) ? `[${host}]` : host;
}

/**
 * The host names, as a URL's `hostname` spells them, that reach a listener bound to `host` from this
 * machine: a loopback or wildcard listener is reached as localhost and as its loopback address(es).
 */
export function hostnamesReaching(host: string): string[] {
  const h = host.trim().toLowerCase();
  const v4 = ['127.0.0.1', 'localhost'];
  const v6 = ['[::1]', 'localhost'];
  switch (h) {
    case '127.0.0.1':
    case '0.0.0.0':
    case '':
      return v4;
    case '::1':
      return v6;
    case '::':
    case 'localhost':
      // Dual-stack (or whichever of the two localhost resolved to when it started listening).
      return ['127.0.0.1', '[::1]', 'localhost'];
    default:
      return [urlHost(h)];
  }
}

export function listenOn(server: Server, host: string, port: number, field: 'port' | 'tlsPort'): Promise<number> {
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    return Promise.reject(new HookbenchError({ code: 'invalid_input', field, message: `${field}: must be a port from 0 to 65535 (got ${port})`, value: port }));
  }
  return new Promise((resolve, reject) => {
    const onError = (e: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      reject(new HookbenchError(listenError(e, host, port, field)));
    };
    const onListening = () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

export function listenError(e: NodeJS.ErrnoException, host: string, port: number, field: string): ApiError {
  const where = `${host}:${port}`;
  if (e.code === 'EADDRINUSE') return { code: 'conflict', field, value: port, message: `${field}: ${where} is already in use (another Hookbench or program listens there); choose another port, or 0 for a free one` };
  if (e.code === 'EACCES') return { code: 'conflict', field, value: port, message: `${field}: not allowed to listen on ${where} (ports below 1024 need privileges); choose another port` };
  if (e.code === 'EADDRNOTAVAIL' || e.code === 'ENOTFOUND') return { code: 'invalid_input', field: 'host', value: host, message: `host: ${host} is not an address of this machine` };
  return { code: 'internal', field, message: `${field}: cannot listen on ${where} (${e.code ?? e.message})` };
}
