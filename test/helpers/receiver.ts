/**
 * A scriptable HTTP(S) receiver on 127.0.0.1:0 for integration tests: every request is captured with its
 * raw body bytes, and each response is decided by a handler the test can swap at any time.
 */
import { once } from 'node:events';
import { createServer as createHttp, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttps } from 'node:https';
import type { AddressInfo } from 'node:net';

export interface Captured {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
  at: number;
}

export type Respond = (req: Captured, res: ServerResponse) => void;

export interface TestReceiver {
  url: string;
  captured: Captured[];
  respond: Respond;
  /** Resolves when `n` requests have arrived in total. */
  waitFor(n: number): Promise<void>;
  close(): Promise<void>;
}

export const status =
  (code: number, headers: Record<string, string> = {}, body = ''): Respond =>
  (_req, res) => {
    res.writeHead(code, headers).end(body);
  };

/** Never answers (until the receiver closes). */
export const never: Respond = () => undefined;

export async function startReceiver(
  respond: Respond = status(200),
  tls?: { key: string; cert: string },
): Promise<TestReceiver> {
  const captured: Captured[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const state = { respond };
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const c: Captured = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks), at: Date.now() };
      captured.push(c);
      for (const w of waiters.filter((w) => captured.length >= w.n)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
      state.respond(c, res);
    });
  };
  const server: Server = tls ? createHttps(tls, handler) : createHttp(handler);
  server.keepAliveTimeout = 1000;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}/hook`,
    captured,
    get respond() {
      return state.respond;
    },
    set respond(r: Respond) {
      state.respond = r;
    },
    waitFor(n) {
      if (captured.length >= n) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ n, resolve }));
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close').catch(() => undefined);
    },
  };
}
