/**
 * Deeply nested calls. A call nesting 5,000 levels was accepted, then broke every
 * listMessages page that held it and its getMessage (500: the answer could not be serialised); 20,000+
 * levels made ingest answer 500, unlogged and uncounted. Now a call's fields nest at most LIMITS.maxDepth
 * levels (docs/behaviour.md §7): deeper calls are refused like any other limit, before their JSON is
 * parsed, and a row stored before the limit existed still reads.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../../main/contract/message/messageShapes.js';
import type { MessageDetail, MessageSummary, Page } from '../../../main/contract/messages.js';
import { runCli } from '../../../main/cli/program.js';
import type { RunningServe } from '../../../main/cli/commands/serve.js';
import { IngestService } from '../../../main/ingestion/ingest.js';
import { deepTrackBody, deepTrackCallJson, nestedArrays } from '../../helpers/deepJson.js';
import { captureIO } from '../../helpers/cliIO.js';
import { must, newDataDir, onCleanup } from '../../helpers/harness.js';
import { basicAuth, serveWithSource, WRITE_KEY } from '../../helpers/serveWithSource.js';


async function post(running: RunningServe, path: string, body: string | Buffer, headers: Record<string, string> = {}) {
  const res = await request(`${running.info.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: basicAuth, ...headers }, body });
  return { status: res.statusCode, body: (await res.body.json()) as { error?: Record<string, unknown>; success?: boolean } };
}

async function api<T>(running: RunningServe, command: string, input: unknown | string) {
  const res = await request(`${running.info.url}/api/${command}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${running.info.token}`, 'content-type': 'application/json' },
    body: typeof input === 'string' ? input : JSON.stringify(input),
  });
  return { status: res.statusCode, body: (await res.body.json()) as { ok: boolean; value?: T; error?: Record<string, unknown> } };
}

/** A track call whose properties nest `levels` levels (an object, then arrays). */
const callAt = (levels: number) => `{"type":"track","userId":"u1","event":"Deep","properties":{"a":${nestedArrays(levels - 1)}}}`;

describe('nesting limit at ingestion', () => {
  it('a batch call whose properties nest 5,001 levels: 400 nesting_too_deep naming the field, logged, counted, nothing stored', async () => {
    const running = await serveWithSource();
    const body = `{"batch":[${callAt(3)},${deepTrackCallJson(5000)}]}`;
    const answer = await post(running, '/v1/batch', body);
    expect(answer).toEqual({
      status: 400,
      body: { error: { code: 'nesting_too_deep', message: 'batch[1].properties: nests 5001 levels > 64', field: 'batch[1].properties', index: 1, limit: 64, value: 5001 } },
    });
    expect(must(running.core.listMessages({})).items).toHaveLength(0);
    const [logged] = must(running.core.listIngestLog({})).items;
    expect(logged).toMatchObject({ httpStatus: 400, code: 'nesting_too_deep', field: 'batch[1].properties', index: 1, route: '/v1/batch' });
    expect(must(running.core.listSourceUsage()).items[0]).toMatchObject({ received: 2, refused: 2, accepted: 0 });
  });

  it('exactly 64 levels is accepted, 65 is refused; single-call routes name the field alone', async () => {
    const running = await serveWithSource();
    expect((await post(running, '/v1/track', callAt(LIMITS.maxDepth))).status).toBe(200);
    const refused = await post(running, '/v1/track', callAt(LIMITS.maxDepth + 1));
    expect(refused).toEqual({ status: 400, body: { error: { code: 'nesting_too_deep', message: 'properties: nests 65 levels > 64', field: 'properties', limit: 64, value: 65 } } });
    expect(must(running.core.listMessages({})).items).toHaveLength(1);
  });

  it('20,000 and 200,000 levels, plain and gzip, on the ingestion thread and inline: 400, logged, the write key in the body counted', async () => {
    const running = await serveWithSource();
    const inline = new IngestService(running.core.ingestion, { thread: 'inline' });
    onCleanup(() => inline.close());
    const viaHttp = (body: string | Buffer, headers: Record<string, string>) => post(running, '/v1/batch', body, { authorization: '', ...headers });
    const viaInline = async (body: string | Buffer, headers: Record<string, string>) => {
      const answer = await inline.handle({ method: 'POST', path: '/v1/batch', headers: { 'content-type': 'application/json', ...headers }, body: Buffer.from(body), clientIp: null });
      return { status: answer.status, body: answer.body as { error?: Record<string, unknown> } };
    };
    for (const send of [viaHttp, viaInline]) {
      for (const levels of [20_000, 200_000]) {
        const text = `{"writeKey":"${WRITE_KEY}","batch":[${callAt(levels)}]}`;
        for (const [body, headers] of [
          [text, {}],
          [gzipSync(text), { 'content-encoding': 'gzip' }],
        ] as const) {
          const answer = await send(body, headers);
          expect(answer.status).toBe(400);
          expect(answer.body.error).toMatchObject({ code: 'nesting_too_deep', field: 'batch[0].properties', value: levels, limit: 64 });
        }
      }
    }
    expect(must(running.core.listIngestLog({})).items).toHaveLength(8);
    expect(must(running.core.listSourceUsage()).items[0]).toMatchObject({ received: 8, refused: 8 });
  });
});

describe('nesting limit on the command line', () => {
  it('hookbench send with a deep --data: exit 2 naming the field, nothing sent', async () => {
    const cli = captureIO();
    const code = await runCli(['send', 'track', '--to', 'http://127.0.0.1:9/hook', '--data', deepTrackCallJson(5000)], cli.io, { send: { tmpRoot: newDataDir() } });
    expect(code).toBe(2);
    expect(cli.err()).toBe('hookbench send: --data: properties: nests 5001 levels > 64\n');
  });
});

describe('nesting limit in the typed API', () => {
  it('sendMessage and sendMessages refuse a deep call with 400, naming the field', async () => {
    const running = await serveWithSource();
    const call = deepTrackCallJson(5000);
    const one = await api(running, 'sendMessage', `{"type":"track","call":${call}}`);
    expect(one).toEqual({ status: 400, body: { ok: false, error: { code: 'nesting_too_deep', message: 'call.properties: nests 5001 levels > 64', field: 'call.properties', limit: 64, value: 5001 } } });
    const many = await api(running, 'sendMessages', `{"messages":[{"type":"track","call":{"userId":"u","event":"e"}},{"type":"track","call":${call}}]}`);
    expect(many.status).toBe(400);
    expect(many.body.error).toMatchObject({ code: 'nesting_too_deep', field: 'messages[1].call.properties', message: 'messages[1].call.properties: nests 5001 levels > 64' });
    expect(must(running.core.listMessages({})).items).toHaveLength(0);
  });

  it('a message stored before the limit (5,000 levels) still reads: listMessages and getMessage answer 200, replay is refused with 400', async () => {
    const running = await serveWithSource();
    must(running.core.sendMessage({ type: 'track', call: { userId: 'u0', event: 'Before' } }));
    const db = new Database(join(running.dataDir, 'hookbench.db'));
    const body = deepTrackBody(5000, 'deep-1');
    const id = Number(
      db
        .prepare(`INSERT INTO messages (message_id, source_id, type, user_id, anonymous_id, event, received_at, status, status_reason, replay_of)
                  VALUES ('deep-1', NULL, 'track', 'u1', NULL, 'Deep', 0, 'filtered', 'no destination', NULL)`)
        .run().lastInsertRowid,
    );
    db.prepare('INSERT INTO message_payloads (message_id, body, call) VALUES (?, ?, ?)').run(id, Buffer.from(body), deepTrackCallJson(5000));
    db.close();
    must(running.core.sendMessage({ type: 'track', call: { userId: 'u2', event: 'After' } }));

    const page = await api<Page<MessageSummary>>(running, 'listMessages', {});
    expect(page.status).toBe(200);
    expect(page.body.value!.items.map((m) => m.event)).toEqual(['After', 'Deep', 'Before']);
    expect(page.body.value!.items[1]).toMatchObject({ id, messageId: 'deep-1', bytes: Buffer.byteLength(body) });

    const detail = await api<MessageDetail>(running, 'getMessage', { id });
    expect(detail.status).toBe(200);
    expect(detail.body.value!.message.messageId).toBe('deep-1');
    expect(detail.body.value!.message.body).toBe(body); // the exact bytes, as text
    expect(JSON.stringify(detail.body.value!.message.call)).toContain('nests 5001 levels');

    const replay = await api(running, 'replayMessage', { id });
    expect(replay.status).toBe(400);
    expect(replay.body.error).toMatchObject({ code: 'nesting_too_deep' });
  });
});
