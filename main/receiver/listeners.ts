/**
 * The mock receiver's two listeners: where they listen, and the errors that name the port a listener could
 * not take.
 */
import type { Server } from 'node:http';
import { isIPv6, type AddressInfo } from 'node:net';
import { HookbenchError, type ApiError } from '../contract/result.js';

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
