/**
 * A webhook that never answers, shared by the time-travel bench and the clock-jump tests: it reads each
 * request and holds its connection open, counting what it holds.
 */
import { once } from 'node:events';
import { createServer, type AddressInfo, type Socket } from 'node:net';

export interface BlackHole {
  url: string;
  /** Requests whose connection is still open (none is ever answered). */
  open: number;
  /** The most requests open at once. */
  maxOpen: number;
  requests: number;
  /** Resolves once `n` requests in all have arrived. */
  requestsReached(n: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * A TCP endpoint that reads each request and never answers it. `answerFirst` answers the first `n`
 * requests with 503, so that a message's first (live) attempt ends at once and its retries hang.
 */
export async function blackHole(answerFirst = 0): Promise<BlackHole> {
  const sockets = new Set<Socket>();
  const waiters: { n: number; resolve: () => void }[] = [];
  const hole: BlackHole = {
    url: '',
    open: 0,
    maxOpen: 0,
    requests: 0,
    requestsReached: (n) => (hole.requests >= n ? Promise.resolve() : new Promise((resolve) => waiters.push({ n, resolve }))),
    close: async () => {
      server.close();
      for (const s of sockets) s.destroy();
      await once(server, 'close').catch(() => undefined);
    },
  };
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    let seen = '';
    let counted = false;
    socket.on('close', () => {
      sockets.delete(socket);
      if (counted) hole.open--;
    });
    socket.on('data', (chunk: Buffer) => {
      seen += chunk.toString('latin1');
      const head = seen.indexOf('\r\n\r\n');
      const length = Number(/content-length: (\d+)/i.exec(seen)?.[1] ?? 0);
      if (head < 0 || seen.length < head + 4 + length) return;
      seen = '';
      hole.requests++;
      for (const w of waiters.filter((w) => hole.requests >= w.n)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
      if (hole.requests <= answerFirst) {
        socket.end('HTTP/1.1 503 Service Unavailable\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
        return;
      }
      counted = true;
      hole.open++;
      if (hole.open > hole.maxOpen) hole.maxOpen = hole.open;
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  hole.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return hole;
}
