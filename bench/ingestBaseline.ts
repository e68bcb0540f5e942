/**
 * Contender `ingest-baseline`: the ingestion server a user would write, as the baseline for Hookbench's
 * `/v1/batch` (a ratio in the same run, which a shared machine's drifting speed cannot skew as it skews an
 * absolute figure). A plain
 * node:http server in this process, as Hookbench's runs here too: it reads the body, parses it, checks the
 * write key (Basic auth), and inserts one row per call (its messageId, type, userId, event, receipt time
 * and JSON) in one transaction per request, with better-sqlite3 in WAL mode with synchronous = NORMAL (the
 * durability Hookbench has). Nothing else: no dedupe, no validation of the calls, no routing, no deliveries.
 * The same load generator child sends it the same requests, after the same warm-up through the same server
 * (bench/ingest.ts).
 */
import Database from 'better-sqlite3';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { expectedIds, ingestOutput, loadPlan, startLoadgen, warmUp, type IngestOutput } from './ingest.js';
import { INGEST_BATCH, INGEST_IN_FLIGHT, INGEST_WRITE_KEY } from './workload.js';

const OK = Buffer.from('{"success":true}');

export async function runIngestBaseline(events: number, dataDir: string, warmEvents = 0, inFlight = INGEST_IN_FLIGHT): Promise<IngestOutput> {
  if (events % INGEST_BATCH !== 0 || warmEvents % INGEST_BATCH !== 0) throw new Error(`ingest-baseline: events (${events}, warm-up ${warmEvents}) must be multiples of ${INGEST_BATCH}`);
  const db = new Database(join(dataDir, 'baseline.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(`CREATE TABLE events (
    id INTEGER PRIMARY KEY,
    message_id TEXT,
    type TEXT,
    user_id TEXT,
    event TEXT,
    received_at INTEGER NOT NULL,
    body TEXT NOT NULL
  )`);
  const insert = db.prepare('INSERT INTO events (message_id, type, user_id, event, received_at, body) VALUES (?, ?, ?, ?, ?, ?)');
  const insertAll = db.transaction((batch: Record<string, unknown>[], receivedAt: number) => {
    for (const call of batch) {
      const text = (key: string): string | null => (typeof call[key] === 'string' ? (call[key] as string) : null);
      insert.run(text('messageId'), text('type'), text('userId'), text('event'), receivedAt, JSON.stringify(call));
    }
  });
  const expectedAuth = `Basic ${Buffer.from(`${INGEST_WRITE_KEY}:`).toString('base64')}`;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const answer = (status: number, body: Buffer | string): void => {
        res.writeHead(status, { 'content-type': 'application/json' }).end(body);
      };
      if (req.headers.authorization !== expectedAuth) return answer(401, '{"error":"bad write key"}');
      let parsed: unknown;
      try {
        parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return answer(400, '{"error":"invalid JSON"}');
      }
      const batch = (parsed as { batch?: unknown } | null)?.batch;
      if (!Array.isArray(batch)) return answer(400, '{"error":"batch must be an array"}');
      insertAll(batch as Record<string, unknown>[], Date.now());
      answer(200, OK);
    });
  });
  server.keepAliveTimeout = 120_000;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const loadgen = startLoadgen();
  try {
    const plan = loadPlan(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/batch`, events, inFlight);
    const warm = warmEvents > 0 ? loadPlan(plan.url, warmEvents, inFlight) : null;
    if (warm) await warmUp(loadgen, warm, 'ingest-baseline');
    const ready = await loadgen.prepare(plan);
    const cpu0 = process.cpuUsage();
    const load = await loadgen.go();
    const serverCpu = process.cpuUsage(cpu0);
    if (load.failed > 0) throw new Error(`ingest-baseline: ${load.failed} of ${plan.requests} requests were not answered 200; the first: ${load.firstFailure}`);

    // Every event sent (the warm-up's too) is stored once.
    const sent = events + warmEvents;
    const expected = expectedIds(warm ? [warm, plan] : [plan]);
    let stored = 0;
    for (const id of db.prepare<[], string>('SELECT message_id FROM events').pluck().iterate()) {
      stored++;
      expected.delete(id);
    }
    if (stored !== sent || expected.size > 0) throw new Error(`ingest-baseline: ${stored} rows for ${sent} events, ${expected.size} events missing`);
    return ingestOutput({ mode: 'baseline', events, plan, ready, load, serverCpu, drain: null, verified: `${sent.toLocaleString('en-US')} events (warm-up included) stored, one row each` });
  } finally {
    loadgen.kill();
    server.closeAllConnections();
    server.close();
    db.close();
  }
}
