/**
 * Contender (b): a forwarder written the way a user would write one. Global fetch, an HMAC signature, and
 * one INSERT per delivery into better-sqlite3 (each its own implicit transaction) in a WAL database, with
 * modest concurrency. Nothing batched, nothing pooled beyond fetch's defaults.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { ContenderOutput } from './contender.js';
import { NAIVE_CONCURRENCY, SHARED_SECRET, trackCall } from './workload.js';

export async function runNaive(url: string, n: number, dir: string): Promise<ContenderOutput> {
  const db = new Database(join(dir, 'naive.db'));
  try {
    db.pragma('journal_mode = WAL');
    db.exec(`CREATE TABLE deliveries (
      id INTEGER PRIMARY KEY,
      message_id TEXT NOT NULL,
      url TEXT NOT NULL,
      body BLOB NOT NULL,
      signature TEXT NOT NULL,
      status_code INTEGER,
      error TEXT,
      response_body TEXT,
      started_at INTEGER NOT NULL,
      finished_at INTEGER NOT NULL,
      duration_ms REAL NOT NULL
    )`);
    const insert = db.prepare(
      `INSERT INTO deliveries (message_id, url, body, signature, status_code, error, response_body, started_at, finished_at, duration_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const latencyMs = new Float64Array(n);
    const requestMs = new Float64Array(n);
    let next = 0;

    const forward = async (i: number): Promise<void> => {
      const messageId = randomUUID();
      const body = JSON.stringify({ type: 'track', ...trackCall(i), messageId, timestamp: new Date().toISOString() });
      const signature = createHmac('sha1', SHARED_SECRET).update(body).digest('hex');
      const startedAt = Date.now();
      const t0 = performance.now();
      let statusCode: number | null = null;
      let error: string | null = null;
      let responseBody: string | null = null;
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-signature': signature },
          body,
        });
        statusCode = res.status;
        responseBody = await res.text();
      } catch (e) {
        error = String(e);
      }
      const t1 = performance.now();
      insert.run(messageId, url, body, signature, statusCode, error, responseBody, startedAt, Date.now(), t1 - t0);
      requestMs[i] = t1 - t0;
      latencyMs[i] = performance.now() - t0;
    };

    const worker = async (): Promise<void> => {
      while (next < n) await forward(next++);
    };

    const t0 = performance.now();
    await Promise.all(Array.from({ length: Math.min(NAIVE_CONCURRENCY, n) }, worker));
    const elapsedMs = performance.now() - t0;

    const ok = db.prepare('SELECT count(*) FROM deliveries WHERE status_code = 200').pluck().get() as number;
    const rows = db.prepare('SELECT count(*) FROM deliveries').pluck().get() as number;
    if (rows !== n || ok !== n) throw new Error(`naive: expected ${n} logged 200 deliveries, found ${ok} of ${rows} rows`);
    return {
      deliveries: n,
      elapsedMs,
      latencyMs,
      latencyMeaning: 'request start → response read and row INSERTed',
      requestMs,
      details: {
        concurrency: NAIVE_CONCURRENCY,
        rowsPersisted: rows,
        synchronous: String(db.pragma('synchronous', { simple: true })),
      },
    };
  } finally {
    db.close();
  }
}
