/**
 * What export writes, import takes back: the two share their bounds (EXPORT_LIMIT messages, EXPORT_TEXT_BYTES
 * of text; IMPORT_LIMITS is the same pair), so an export at either bound imports whole, from a file, through a
 * running serve's HTTP API too. An export that would be larger holds the newest messages that fit and says so.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServe } from '../../../main/cli/commands/serve.js';
import { runCli } from '../../../main/cli/program.js';
import { EXPORT_LIMIT, EXPORT_TEXT_BYTES } from '../../../main/contract/commands.js';
import { IMPORT_LIMITS } from '../../../main/contract/importMessages.js';
import { captureIO } from '../../helpers/cliIO.js';
import { must, newCore, newDataDir, newReceiver, onCleanup, settled } from '../../helpers/harness.js';

describe('export, then import: the limits agree', () => {
  it('are one pair of bounds', () => {
    expect(IMPORT_LIMITS.messages).toBe(EXPORT_LIMIT);
    expect(IMPORT_LIMITS.textBytes).toBe(EXPORT_TEXT_BYTES);
  });

  it('a HAR export of 101 messages with their attempts (over 2 MB) imports back, one message each', async () => {
    const r = await newReceiver();
    const core = newCore();
    must(core.createSource({ name: 'web', kind: 'web' }));
    must(core.createDestination({ name: 'd', enabled: true, url: r.url, sources: ['web'] }));
    const padding = 'x'.repeat(20_000);
    const sent = must(core.sendMessages({ messages: Array.from({ length: 101 }, (_, i) => ({ type: 'track' as const, call: { userId: `u${i}`, event: 'Big', properties: { padding } }, source: 'web' })) }));
    for (const s of sent) await settled(core, s.message.id);
    const har = must(core.exportMessages({ filter: {}, format: 'har' }));
    expect(har).toMatchObject({ messages: 101, truncated: false, truncatedBy: null });
    expect(Buffer.byteLength(har.text)).toBeGreaterThan(2 * 1024 * 1024);
    const imported = must(core.importMessages({ text: har.text }));
    expect(imported.imported).toHaveLength(101);
  });

  it("a HAR export counts the messages it holds and the ones never sent (HAR lists attempts); imported back, each goes through its source again", async () => {
    const r = await newReceiver();
    const core = newCore();
    must(core.createSource({ name: 'web', kind: 'web' }));
    must(core.createDestination({ name: 'd', enabled: true, url: r.url, sources: ['web'] }));
    const sent = must(core.sendMessage({ type: 'track', source: 'web', call: { userId: 'u1', event: 'Sent' } }));
    await settled(core, sent.message.id);
    // Routed nowhere: filtered, never sent.
    must(core.sendMessage({ type: 'track', source: 'web', call: { userId: 'u2', event: 'Kept', integrations: { All: false } } }));
    const har = must(core.exportMessages({ filter: {}, format: 'har' }));
    expect(har).toMatchObject({ messages: 1, notSent: 1 });
    expect(must(core.exportMessages({ filter: {}, format: 'json' }))).toMatchObject({ messages: 2, notSent: 0 });
    const imported = must(core.importMessages({ text: har.text }));
    const copy = must(core.getMessage({ id: imported.imported[0]!.id })).message;
    expect(copy.sourceId).toBe(core.findSource('web')!.id);
  });

  it('an export past the text bound holds the newest that fit and says so; through a serve, import takes it whole', async () => {
    const dataDir = join(newDataDir(), 'data');
    const running = await startServe({ dataDir, host: '127.0.0.1', port: 0, receiverPort: 0, receiverTlsPort: 0 }, { stdout: () => undefined, stderr: () => undefined });
    onCleanup(() => running.stop());
    const core = running.core;
    must(core.createSource({ name: 'web', kind: 'web' }));
    // Calls of about 30 KiB: a JSON lines export holds each twice (the call and the body sent), so 300 are over 16 MiB.
    const padding = 'y'.repeat(30 * 1024);
    for (let batch = 0; batch < 3; batch++) {
      must(core.sendMessages({ messages: Array.from({ length: 100 }, (_, i) => ({ type: 'track' as const, call: { userId: `u${batch * 100 + i}`, event: 'Big', properties: { padding } }, source: 'web' })) }));
    }
    const file = join(newDataDir(), 'big.jsonl');
    const exported = captureIO();
    expect(await runCli(['export', '--out', file, '--data-dir', dataDir], exported.io)).toBe(0);
    const text = readFileSync(file);
    expect(text.byteLength).toBeLessThanOrEqual(EXPORT_TEXT_BYTES);
    expect(text.byteLength).toBeGreaterThan(EXPORT_TEXT_BYTES - 2 * 70 * 1024);
    const kept = text.toString('utf8').trim().split('\n').length;
    expect(kept).toBeLessThan(300);
    expect(exported.err()).toContain(`exported ${kept} messages as JSON lines, secrets redacted to ${file}\n`);
    expect(exported.err()).toContain(`more messages matched: only the newest that fit in ${EXPORT_TEXT_BYTES.toLocaleString('en-US')} bytes (what one import takes) are in it`);
    // The newest are the ones kept.
    const ids = text.toString('utf8').trim().split('\n').map((l) => (JSON.parse(l) as { message: { call: { userId: string } } }).message.call.userId);
    expect(ids[0]).toBe('u299');

    const imported = captureIO();
    expect(await runCli(['import', file, '--data-dir', dataDir], imported.io)).toBe(0);
    expect(imported.out()).toMatch(new RegExp(`^imported ${kept} messages from .*big\\.jsonl \\(JSON lines\\) into the serve at http`));
  });

  it('an export of 10,000 messages, the most one holds, imports whole', async () => {
    const core = newCore({ autoStart: false });
    must(core.createSource({ name: 'web', kind: 'web' }));
    for (let batch = 0; batch < EXPORT_LIMIT / 1000; batch++) {
      must(core.sendMessages({ messages: Array.from({ length: 1000 }, (_, i) => ({ type: 'track' as const, call: { userId: `u${batch}-${i}`, event: 'E' }, source: 'web' })) }));
    }
    must(core.sendMessage({ type: 'track', call: { userId: 'one-more', event: 'E' }, source: 'web' }));
    const json = must(core.exportMessages({ filter: {}, format: 'json' }));
    expect(json).toMatchObject({ messages: EXPORT_LIMIT, truncated: true, truncatedBy: 'count' });
    const imported = must(core.importMessages({ text: json.text, source: 'web' }));
    expect(imported.imported).toHaveLength(EXPORT_LIMIT);
  });
});
