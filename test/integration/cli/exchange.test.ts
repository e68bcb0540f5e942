/**
 * `hookbench export` and `hookbench import`, run as a user runs them (argv through runCli, files on disk):
 * through a running serve and on a data dir without one. Waits on engine state, never sleeps.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../main/cli/program.js';
import { startServe, type RunningServe } from '../../../main/cli/commands/serve.js';
import { IMPORT_LIMITS } from '../../../main/contract/importMessages.js';
import { createCore } from '../../../main/app/createCore.js';
import { captureIO } from '../../helpers/cliIO.js';
import { must, newDataDir, newReceiver, onCleanup, settled } from '../../helpers/harness.js';
import { status } from '../../helpers/receiver.js';

const silent = { stdout: () => undefined, stderr: () => undefined };

async function serve(dataDir = join(newDataDir(), 'data')): Promise<RunningServe> {
  const running = await startServe({ dataDir, host: '127.0.0.1', port: 0, receiverPort: 0, receiverTlsPort: 0 }, silent);
  onCleanup(() => running.stop());
  return running;
}

async function cli(argv: string[], stdin?: string) {
  const c = captureIO(stdin);
  const code = await runCli(argv, c.io);
  return { code, out: c.out(), err: c.err() };
}

/** A serve with a source `backend`, a destination `Hooks` (secret s3cret) answering 404 to user `bad`, and three messages settled. */
async function serveWithHistory() {
  const rx = await newReceiver((req, res) => status(req.headers['x-user'] === 'bad' ? 404 : 200)(req, res));
  const running = await serve();
  const core = running.core;
  must(core.createSource({ name: 'backend', kind: 'server', writeKey: 'wk_backend_0123456789' }));
  must(core.createSource({ name: 'web', kind: 'web' }));
  must(core.createDestination({ name: 'Hooks', enabled: true, sources: ['backend', 'web'], url: rx.url, sharedSecret: 's3cret' }));
  must(core.createDestination({ name: 'Bad', enabled: true, sources: ['backend'], webhooks: [{ url: rx.url, headers: { 'X-User': 'bad' } }] }));
  const ids = [
    must(core.sendMessage({ type: 'track', call: { userId: 'ada', event: 'Order Completed', properties: { total: 42 } }, source: 'backend' })).message.id,
    must(core.sendMessage({ type: 'identify', call: { userId: 'bob', traits: { plan: 'pro' } }, source: 'web' })).message.id,
  ];
  for (const id of ids) await settled(core, id);
  return { running, core, ids, rx };
}

describe('hookbench export', () => {
  it('writes a HAR file of the messages the filters match, through the running serve, secrets redacted', async () => {
    const { running, ids } = await serveWithHistory();
    const file = join(newDataDir(), 'failed.har');
    const r = await cli(['export', '--out', file, '--delivery', 'failed', '--data-dir', running.dataDir]);
    expect(r.code).toBe(0);
    expect(r.out).toBe('');
    expect(r.err).toBe(`exported 1 message as HAR 1.2, secrets redacted to ${file}\n`);
    const text = readFileSync(file, 'utf8');
    const har = JSON.parse(text) as { log: { entries: { _messageId: number; request: { url: string } }[] } };
    // Only the backend message reached the destination that answers 404: one attempt to Hooks, one to Bad.
    expect(har.log.entries.map((e) => e._messageId)).toEqual([ids[0], ids[0]]);
    expect(text).not.toContain('s3cret');
    expect(text).not.toContain('wk_backend_0123456789');
    expect(must(running.core.exportMessages({ ids: [ids[0]!], format: 'har' })).text).toBe(text);
  });

  it('prints the export itself to stdout without --out; --source and --type filter by name; the extension of --out picks JSON lines', async () => {
    const { running, ids } = await serveWithHistory();
    const r = await cli(['export', '--format', 'json', '--source', 'web', '--data-dir', running.dataDir]);
    expect(r.code).toBe(0);
    const lines = r.out.trimEnd().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { message: { id: number } }).message.id)).toEqual([ids[1]]);
    expect(r.err).toBe('exported 1 message as JSON lines, secrets redacted\n');

    const file = join(newDataDir(), 'tracks.jsonl');
    expect((await cli(['export', '-o', file, '--type', 'track', '--data-dir', running.dataDir])).code).toBe(0);
    expect((JSON.parse(readFileSync(file, 'utf8').trimEnd()) as { message: { id: number } }).message.id).toBe(ids[0]);

    const withSecrets = await cli(['export', '--id', String(ids[0]), '--format', 'curl', '--include-secrets', '--data-dir', running.dataDir]);
    expect(withSecrets.code).toBe(0);
    expect(withSecrets.out).toMatch(/^#!/);
    expect(withSecrets.out).toContain('curl ');
    expect(withSecrets.err).toBe('exported 1 message as a cURL script (with secrets)\n');
  });

  it('says how many matching messages were never sent, which HAR leaves out (it lists attempts), and exits 1 when that is all of them', async () => {
    const { running, core } = await serveWithHistory();
    // Routed nowhere: filtered, never sent.
    must(core.sendMessage({ type: 'track', call: { userId: 'cy', event: 'Kept Here', integrations: { All: false } }, source: 'web' }));
    const all = await cli(['export', '--out', join(newDataDir(), 'all.har'), '--data-dir', running.dataDir]);
    expect(all.code).toBe(0);
    expect(all.err).toMatch(/; 1 never sent is not in it \(HAR 1\.2 lists attempts\)\n$/);
    const none = await cli(['export', '--user', 'cy', '--data-dir', running.dataDir]);
    expect(none.code).toBe(1);
    expect(none.err).toBe('hookbench export: the 1 matching message was never sent, and HAR 1.2 lists attempts; nothing written (--format json holds every message)\n');

    // The newest 10,000 never sent, older ones sent: the export says they are the newest, not all that matched.
    for (let batch = 0; batch < 10; batch++) {
      must(core.sendMessages({ messages: Array.from({ length: 1000 }, () => ({ type: 'track' as const, call: { userId: 'dee', event: 'Kept Here', integrations: { All: false } }, source: 'web' })) }));
    }
    const newest = await cli(['export', '--data-dir', running.dataDir]);
    expect(newest.code).toBe(1);
    expect(newest.err).toBe('hookbench export: the newest 10,000 matching messages were never sent, and HAR 1.2 lists attempts; nothing written (--format json holds every message; narrow the filters, e.g. --delivery, --from, --to)\n');
  });

  it('reads the data dir itself when no serve runs there', async () => {
    const { running, ids } = await serveWithHistory();
    await running.stop();
    const file = join(newDataDir(), 'all.jsonl');
    const r = await cli(['export', '--out', file, '--data-dir', running.dataDir]);
    expect(r.code).toBe(0);
    const exported = readFileSync(file, 'utf8').trimEnd().split('\n').map((l) => (JSON.parse(l) as { message: { id: number } }).message.id);
    expect(exported).toEqual([...ids].reverse());
  });

  it('refuses bad options naming the flag and the value, keeps an existing file, and exits 1 when nothing matches', async () => {
    const { running } = await serveWithHistory();
    const dir = newDataDir();
    const existing = join(dir, 'keep.har');
    writeFileSync(existing, 'mine');
    const kept = await cli(['export', '--out', existing, '--data-dir', running.dataDir]);
    expect(kept.code).toBe(2);
    expect(kept.err).toBe(`hookbench export: --out: ${existing} already exists; give --force to replace it (or another file name)\n`);
    expect(readFileSync(existing, 'utf8')).toBe('mine');
    const forced = await cli(['export', '--out', existing, '--force', '--data-dir', running.dataDir]);
    expect(forced.code).toBe(0);
    expect(readFileSync(existing, 'utf8')).toContain('"log"');

    // A path it cannot write is usage (2), said before anything is read, like the file already there.
    const noFolder = join(dir, 'missing', 'out.har');
    const unwritable = await cli(['export', '--out', noFolder, '--data-dir', running.dataDir]);
    expect(unwritable.code).toBe(2);
    expect(unwritable.err).toBe(`hookbench export: --out: ${noFolder} cannot be written (ENOENT: its folder does not exist)\n`);
    const throughFile = await cli(['export', '--out', join(existing, 'out.har'), '--user', 'nobody', '--data-dir', running.dataDir]);
    expect(throughFile.code).toBe(2);
    expect(throughFile.err).toBe(`hookbench export: --out: ${join(existing, 'out.har')} cannot be checked (ENOTDIR: a part of its path is not a folder)\n`);
    // --help says which exit status each of these is.
    const help = await cli(['export', '--help']);
    expect(help.out).toContain('Exit status: 0 written, 1 nothing written (no message matched, or the text could not be written: a full disk),\n2 bad input or usage (an --out file already there, or whose folder is missing or not writable).');

    const time = await cli(['export', '--from', 'yesterday', '--data-dir', running.dataDir]);
    expect(time.code).toBe(2);
    expect(time.err).toContain('--from: expected an ISO 8601 time with its zone (2026-11-26T10:00:00Z), a date (2026-11-26, UTC) or ms since the epoch, got "yesterday"');
    const source = await cli(['export', '--source', 'mobile', '--data-dir', running.dataDir]);
    expect(source.code).toBe(2);
    expect(source.err).toContain('--source: no source named or with id "mobile" in the serve at');
    expect(source.err).toContain('; the sources are "backend", "web"\n');
    const blank = await cli(['export', '--source', '', '--data-dir', running.dataDir]);
    expect(blank.code).toBe(2);
    expect(blank.err).toBe('hookbench export: --source: must not be empty\n');
    const both = await cli(['export', '--id', '1', '--status', 'failed', '--data-dir', running.dataDir]);
    expect(both.code).toBe(2);
    expect(both.err).toContain('give --id or filters (--status, --type, --source, ...), not both');
    const format = await cli(['export', '--format', 'xml', '--data-dir', running.dataDir]);
    expect(format.code).toBe(2);
    expect(format.err).toContain("option '--format <format>' argument 'xml' is invalid. Allowed choices are json, har, curl.");
    const missing = await cli(['export', '--id', '999', '--data-dir', running.dataDir]);
    expect(missing.code).toBe(2);
    expect(missing.err).toBe('hookbench export: --id: no message with id 999\n');
    const long = await cli(['export', '--user', 'u'.repeat(1001), '--data-dir', running.dataDir]);
    expect(long.code).toBe(2);
    expect(long.err).toBe('hookbench export: --user: must be at most 1,000 characters\n');
    const reversed = await cli(['export', '--from', '2026-11-28T14:00:00Z', '--to', '2026-11-28T13:00:00Z', '--data-dir', running.dataDir]);
    expect(reversed.code).toBe(2);
    expect(reversed.err).toBe('hookbench export: --to: must be after --from (got from 2026-11-28T14:00:00.000Z, to 2026-11-28T13:00:00.000Z)\n');

    const none = join(dir, 'none.har');
    const nothing = await cli(['export', '--out', none, '--user', 'nobody', '--data-dir', running.dataDir]);
    expect(nothing.code).toBe(1);
    expect(nothing.err).toContain('no message in the serve at');
    expect(nothing.err).toContain('matches these filters; nothing written');
    expect(existsSync(none)).toBe(false);
  });
});

describe('hookbench import', () => {
  it('sends the messages of an exported HAR again through the running serve: new messages, listed with the ids they were', async () => {
    const { running, ids, rx } = await serveWithHistory();
    const file = join(newDataDir(), 'both.har');
    expect((await cli(['export', '--out', file, '--id', String(ids[0]), '--id', String(ids[1]), '--data-dir', running.dataDir])).code).toBe(0);
    const before = rx.captured.length;
    const r = await cli(['import', file, '--data-dir', running.dataDir]);
    expect(r.code).toBe(0);
    const lines = r.out.trimEnd().split('\n');
    expect(lines[0]).toBe(`imported 2 messages from ${file} (HAR) into the serve at ${running.info.url}`);
    const newIds = lines.slice(1).map((l) => Number(/^ {2}#(\d+) \(was #(\d+)\)/.exec(l)![1]));
    expect(lines.slice(1).map((l) => Number(/\(was #(\d+)\)/.exec(l)![1]))).toEqual(ids);
    for (const id of newIds) await settled(running.core, id);
    expect(rx.captured.length).toBe(before + 3); // the track to Hooks and Bad, the identify to Hooks
  });

  it('imports JSON lines from stdin into a data dir without a serve, through --source, keeping messageIds; they wait, queued', async () => {
    const { running, ids } = await serveWithHistory();
    const exported = await cli(['export', '--format', 'json', '--id', String(ids[0]), '--data-dir', running.dataDir]);
    const other = join(newDataDir(), 'other');
    const setup = createCore({ dataDir: other, autoStart: false });
    must(setup.createSource({ name: 'replays', kind: 'server' }));
    must(setup.createDestination({ name: 'Local', enabled: true, sources: ['replays'], url: 'http://127.0.0.1:9/hook' }));
    await setup.close();

    // Without --source, where the export's source and destinations do not exist: the refusal names the flag.
    const lost = await cli(['import', '-', '--data-dir', other], exported.out);
    expect(lost.code).toBe(2);
    expect(lost.err).toMatch(/^hookbench import: stdin: line 1: its source .* do(es)? not exist in this workbench; choose a source to route the import through with --source NAME; nothing was imported\n$/);

    const r = await cli(['import', '-', '--source', 'replays', '--keep-message-ids', '--json', '--data-dir', other], exported.out);
    expect(r.code).toBe(0);
    const answer = JSON.parse(r.out) as { format: string; imported: { id: number; importedFrom: number; status: string; deliveries: number }[] };
    expect(answer).toMatchObject({ format: 'json', imported: [{ importedFrom: ids[0], status: 'queued', deliveries: 1 }] });

    const human = await cli(['import', '-', '--source', 'replays', '--data-dir', other], exported.out);
    expect(human.out).toContain(`no serve runs there: the deliveries wait, queued, until hookbench serve --data-dir ${other} starts\n`);

    const check = createCore({ dataDir: other, autoStart: false });
    onCleanup(() => check.close());
    const original = must(running.core.getMessage({ id: ids[0]! })).message;
    const copy = must(check.getMessage({ id: answer.imported[0]!.id })).message;
    expect(copy.messageId).toBe(original.messageId);
    expect(copy.status).toBe('queued');
  });

  it("names a destination that is off: a copy of a hookbench send message waits for the send's own destination, disabled between sends", async () => {
    const rx = await newReceiver(status(200));
    const running = await serve();
    expect((await cli(['send', 'track', '--to', rx.url, '--data', '{"userId":"u1","event":"Signed Up"}', '--data-dir', running.dataDir])).code).toBe(0);
    const file = join(newDataDir(), 'sent.jsonl');
    expect((await cli(['export', '--out', file, '--data-dir', running.dataDir])).code).toBe(0);
    const r = await cli(['import', file, '--data-dir', running.dataDir]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^ {2}#2 \(was #1\) {2}queued, 1 delivery; held: "hookbench send" is disabled\n/m);
    expect(r.out).toContain('deliveries to a disabled destination wait, queued, until it is enabled ("hookbench send": Destinations, or updateDestination with enabled: true)\n');
    const json = JSON.parse((await cli(['import', file, '--json', '--data-dir', running.dataDir])).out) as { imported: { held: string[] }[] };
    expect(json.imported).toEqual([expect.objectContaining({ held: ['hookbench send'] })]);
  });

  it('says the copies wait while the serve has forwarding paused, as History does', async () => {
    const { running, ids, core } = await serveWithHistory();
    const file = join(newDataDir(), 'one.jsonl');
    expect((await cli(['export', '--id', String(ids[0]), '--out', file, '--data-dir', running.dataDir])).code).toBe(0);
    must(core.pauseForwarding({}));
    const paused = await cli(['import', file, '--data-dir', running.dataDir]);
    expect(paused.code).toBe(0);
    expect(paused.out).toContain('forwarding is paused: 2 deliveries wait, queued, until it is resumed (the Forwarding switch in the top bar, or resumeForwarding)\n');
    must(core.resumeForwarding({}));
    const resumed = await cli(['import', file, '--data-dir', running.dataDir]);
    expect(resumed.out).not.toContain('forwarding is paused');
  });

  it("a later send that lifts --max-attempts keeps the copies waiting on 'hookbench send': they go out, never cancelled as 'destination deleted'", async () => {
    const rx = await newReceiver(status(200));
    const running = await serve();
    expect((await cli(['send', 'track', '--to', rx.url, '--max-attempts', '1', '--data', '{"userId":"u1","event":"Capped"}', '--data-dir', running.dataDir])).code).toBe(0);
    const file = join(newDataDir(), 'capped.jsonl');
    expect((await cli(['export', '--out', file, '--data-dir', running.dataDir])).code).toBe(0);
    const imported = JSON.parse((await cli(['import', file, '--json', '--data-dir', running.dataDir])).out) as { imported: { id: number; held: string[] }[] };
    const copy = imported.imported[0]!;
    expect(copy.held).toEqual(['hookbench send']);
    // The same destination, its cap lifted in place: the waiting copy goes out with this send's settings.
    expect((await cli(['send', 'track', '--to', rx.url, '--data', '{"userId":"u1","event":"Uncapped"}', '--data-dir', running.dataDir])).code).toBe(0);
    const settledCopy = await settled(running.core, copy.id);
    expect(settledCopy.deliveries).toEqual([expect.objectContaining({ destinationName: 'hookbench send', status: 'delivered' })]);
    expect(must(running.core.listDestinations({ owner: 'send' })).items).toEqual([expect.objectContaining({ name: 'hookbench send', enabled: false, retry: expect.not.objectContaining({ maxAttempts: expect.anything() }) })]);
  });

  it('refuses a bad entry naming the file and line, a file over the limit naming it, and imports nothing', async () => {
    const { running, ids, core } = await serveWithHistory();
    const dir = newDataDir();
    const good = (await cli(['export', '--format', 'json', '--id', String(ids[0]), '--data-dir', running.dataDir])).out;
    const broken = join(dir, 'broken.jsonl');
    writeFileSync(broken, `${good}{"message": nope}\n`);
    const count = () => must(core.listMessages({})).items.length;
    const before = count();

    const r = await cli(['import', broken, '--data-dir', running.dataDir]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(new RegExp(`^hookbench import: ${broken.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: line 2: not JSON \\(.*\\); give a JSON lines export \\(one message a line\\) or a HAR file; nothing was imported\\n$`));

    // With --json the refusal is one JSON line on stdout, as send's is.
    const asJson = await cli(['import', broken, '--json', '--data-dir', running.dataDir]);
    expect(asJson.code).toBe(2);
    expect(asJson.err).toBe('');
    expect(JSON.parse(asJson.out)).toMatchObject({ type: 'error', code: 'invalid_input', field: 'text', message: expect.stringMatching(/: line 2: not JSON .*; nothing was imported$/) });

    const big = join(dir, 'big.jsonl');
    writeFileSync(big, `${good.trimEnd()}${' '.repeat(IMPORT_LIMITS.textBytes)}\n`);
    const tooBig = await cli(['import', big, '--data-dir', running.dataDir]);
    expect(tooBig.code).toBe(2);
    expect(tooBig.err).toBe(`hookbench import: ${big} is ${(good.trimEnd().length + IMPORT_LIMITS.textBytes + 1).toLocaleString('en-US')} bytes, over the limit of ${IMPORT_LIMITS.textBytes.toLocaleString('en-US')} bytes\n`);

    const missingAsJson = await cli(['import', broken.replace('broken', 'missing'), '--json', '--data-dir', running.dataDir]);
    expect(missingAsJson).toMatchObject({ code: 2, err: '' });
    expect(JSON.parse(missingAsJson.out)).toMatchObject({ type: 'error', code: 'usage', message: expect.stringContaining('missing.jsonl does not exist') });
    const unknown = await cli(['import', broken.replace('broken', 'missing'), '--data-dir', running.dataDir]);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('missing.jsonl does not exist');
    const source = join(dir, 'good.jsonl');
    writeFileSync(source, good);
    const noSource = await cli(['import', source, '--source', 'mobile', '--data-dir', running.dataDir]);
    expect(noSource.code).toBe(2);
    expect(noSource.err).toBe('hookbench import: --source: no source named or with id "mobile"; the sources are "backend", "web"; nothing was imported\n');
    expect(count()).toBe(before);
  });
});
