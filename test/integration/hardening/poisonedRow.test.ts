/**
 * A call nesting ~5,000 arrays, once stored, crashed the process when it was delivered to
 * a receiver endpoint whose secret differs from the destination's (the signature diagnosis recursed), and
 * because the delivery is durable every restart crashed again. The row here is stored directly with SQL, as
 * a data dir written before the nesting limit would hold it.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCore } from '../../../main/app/createCore.js';
import { deepTrackBody } from '../../helpers/deepJson.js';
import { must, newDataDir, onCleanup, settled } from '../../helpers/harness.js';

/** A data dir with a receiver endpoint, a destination pointing at it with another secret, and no messages. */
async function prepareDataDir(): Promise<{ dataDir: string; destinationId: string }> {
  const dataDir = newDataDir();
  const core = createCore({ dataDir, seed: 1, autoStart: false });
  must(core.createReceiver({ name: 'rx', secret: 'other-secret', script: 200 }));
  const destination = must(core.createDestination({ name: 'd', enabled: true, sharedSecret: 's3cret', url: 'receiver:rx' }));
  await core.close();
  return { dataDir, destinationId: destination.id };
}

/** Stores a message with its payload and one queued delivery, as ingestion once did, straight into SQLite. */
function insertPoisonedRow(dataDir: string, destinationId: string, levels: number): number {
  const db = new Database(join(dataDir, 'hookbench.db'));
  try {
    const body = deepTrackBody(levels, `deep-${levels}`);
    const call = `{"type":"track","userId":"u1","event":"Deep","properties":${body.slice(body.indexOf('"properties":') + 13, body.indexOf(',"timestamp"'))}}`;
    const now = Date.now();
    const id = Number(
      db
        .prepare(`INSERT INTO messages (message_id, source_id, type, user_id, anonymous_id, event, received_at, status, status_reason, replay_of)
                  VALUES (?, NULL, 'track', 'u1', NULL, 'Deep', ?, 'queued', NULL, NULL)`)
        .run(`deep-${levels}`, now).lastInsertRowid,
    );
    db.prepare('INSERT INTO message_payloads (message_id, body, call) VALUES (?, ?, ?)').run(id, Buffer.from(body, 'utf8'), call);
    db.prepare(`INSERT INTO deliveries (message_id, destination_id, destination_name, status, next_attempt_at, updated_at) VALUES (?, ?, 'd', 'queued', ?, ?)`).run(
      id,
      destinationId,
      now,
      now,
    );
    return id;
  } finally {
    db.close();
  }
}

describe('a poisoned row (a message nesting 5,000 levels, stored before the limit)', () => {
  it('does not block start: it is delivered, captured with a signature diagnosis, and the process lives on', async () => {
    const { dataDir, destinationId } = await prepareDataDir();
    const id = insertPoisonedRow(dataDir, destinationId, 5000);

    const core = createCore({ dataDir, seed: 1, autoStart: false });
    onCleanup(() => core.close());
    await core.receivers.start({ host: '127.0.0.1', port: 0, tlsPort: null });
    core.start();
    const detail = await settled(core, id);
    expect(detail.message.status).toBe('delivered');

    const captures = must(core.receivers.listCaptures({ receiver: 'rx' })).items;
    expect(captures).toHaveLength(1);
    expect(captures[0]!.messageId).toBe('deep-5000');
    // The body's diagnosis ran without recursing through it; the engine's own attempt sent it, so the verdict names the secrets.
    expect(captures[0]!.signature).toMatchObject({ verdict: 'invalid', diagnosis: { mistakes: ['secret-differs'] } });

    // The core keeps working after it: a normal message is delivered too.
    const next = must(core.sendMessage({ type: 'track', call: { userId: 'u2', event: 'After' }, destinations: ['d'] }));
    expect((await settled(core, next.message.id)).message.status).toBe('delivered');
  });
});
