/**
 * The CLI commands that work with a running `hookbench serve` (found through <data>/server.json): info,
 * tail, show, and send through a serve. In-process: serve via startServe on port 0, commands via runCli with
 * an injected CliIO. Waits on output and engine events, never sleeps.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { EngineEvent } from '../../../main/contract/events.js';
import { runCli, type CliDeps } from '../../../main/cli/program.js';
import { startServe, type RunningServe } from '../../../main/cli/commands/serve.js';
import { captureIO } from '../../helpers/cliIO.js';
import { startCommand } from '../../helpers/cliRun.js';
import { must, newDataDir, newReceiver, onCleanup, settled } from '../../helpers/harness.js';
import { status, type Respond } from '../../helpers/receiver.js';

const silent = { stdout: () => undefined, stderr: () => undefined };
const DEPS: CliDeps = { tail: { retryMs: { min: 10, max: 50 }, timeZone: 'UTC' } };

async function serve(dataDir = join(newDataDir(), 'data')): Promise<RunningServe> {
  const running = await startServe({ dataDir, host: '127.0.0.1', port: 0, receiverPort: 0, receiverTlsPort: 0 }, silent);
  onCleanup(() => running.stop());
  return running;
}

/** Answers in order, the last repeating. */
function sequence(...codes: number[]): Respond {
  let i = 0;
  return (req, res) => {
    const code = codes[Math.min(i++, codes.length - 1)]!;
    status(code, { 'x-answer': String(code) })(req, res);
  };
}

const start = (argv: string[]) => startCommand(argv, DEPS);


/** The printed lines of a human tail, without the date separators. */
const tailLines = (out: string) => out.split('\n').filter((l) => /^\d\d:\d\d:\d\d\.\d{3}  /.test(l));

describe('hookbench serve', () => {
  it('names what its config created or updated', async () => {
    const dir = newDataDir();
    const config = join(dir, 'hookbench.config.json');
    writeFileSync(config, JSON.stringify({ sources: [{ name: 'backend', kind: 'server' }], destinations: [{ name: 'Local receiver', url: 'http://127.0.0.1:9/h' }] }));
    let err = '';
    const io = { stdout: () => undefined, stderr: (t: string) => void (err += t) };
    const first = await startServe({ config, dataDir: join(dir, 'data'), host: '127.0.0.1', port: 0, receiverPort: 0, receiverTlsPort: 0 }, io);
    await first.stop();
    expect(err).toContain(`config ${config}: created source backend, destination Local receiver\n`);
    const again = await startServe({ config, dataDir: join(dir, 'data'), host: '127.0.0.1', port: 0, receiverPort: 0, receiverTlsPort: 0 }, io);
    await again.stop();
    expect(err).toContain(`config ${config}: updated source backend, destination Local receiver\n`);
  });
});

describe('the serve banner', () => {
  it('suggests the commands as npx runs them, with the data dir flag they need', async () => {
    const dataDir = join(newDataDir(), 'data');
    const { c, run } = start(['serve', '--data-dir', dataDir, '--port', '0', '--receiver-port', '0', '--receiver-tls-port', '0']);
    await c.waitForErr('stop with Ctrl-C');
    expect(c.err()).toContain(`(npx hookbench info token --data-dir ${dataDir})\n`);
    expect(c.err()).toContain(`  watch it:      npx hookbench tail --data-dir ${dataDir}   (one message: npx hookbench show <id> --data-dir ${dataDir})\n`);
    expect(c.err()).not.toMatch(/[^x] hookbench (info|tail|show)/);
    c.abort();
    expect(await run).toBe(0);
  });
});

describe('hookbench info', () => {
  it("prints the running serve's URLs, pid and token; one field alone for scripts; --json; exit 2 without a serve", async () => {
    const running = await serve();
    const data = running.dataDir;
    const human = captureIO();
    expect(await runCli(['info', '--data-dir', data], human.io)).toBe(0);
    expect(human.out()).toContain(`runs as pid ${process.pid}`);
    expect(human.out()).toContain(`url:           ${running.info.url}\n`);
    expect(human.out()).toContain(`token:         ${running.info.token}\n`);
    expect(human.out()).toContain(`data dir:      ${data}\n`);

    const token = captureIO();
    expect(await runCli(['info', 'token', '--data-dir', data], token.io)).toBe(0);
    expect(token.out()).toBe(`${running.info.token}\n`);
    const url = captureIO();
    expect(await runCli(['info', 'url', '--data-dir', data], url.io)).toBe(0);
    expect(url.out()).toBe(`${running.info.url}\n`);

    const json = captureIO();
    expect(await runCli(['info', '--json', '--data-dir', data], json.io)).toBe(0);
    expect(JSON.parse(json.out())).toEqual({ ...running.info, dataDir: data });

    const bad = captureIO();
    expect(await runCli(['info', 'password', '--data-dir', data], bad.io)).toBe(2);
    expect(bad.err()).toContain("'password' is invalid for argument 'field'");

    await running.stop();
    const none = captureIO();
    expect(await runCli(['info', 'token', '--data-dir', data], none.io)).toBe(2);
    expect(none.err()).toContain(`no running Hookbench found: ${join(data, 'server.json')} does not exist`);
  });
});

describe('hookbench tail', () => {
  it('streams messages, attempts (outcome, status, duration, next retry) and delivery changes, aligned, sources by name; Ctrl-C exits 0', async () => {
    const rx = await newReceiver(sequence(500, 200));
    const running = await serve();
    const core = running.core;
    const source = must(core.createSource({ name: 'backend', kind: 'server' }));
    must(core.createDestination({ name: 'Local receiver', enabled: true, sources: ['backend'], url: rx.url }));

    const { c, run } = start(['tail', '--data-dir', running.dataDir]);
    await c.waitForErr('tailing Hookbench at');
    const id = must(core.sendMessage({ type: 'track', call: { userId: 'u1', event: 'Signed Up' }, source: 'backend' })).message.id;
    await c.waitForOut('next retry');
    must(await core.advanceClock({ ms: 600_000 }));
    await c.waitForOut('clock moved'); // announced once the attempts it played are recorded

    const lines = tailLines(c.out());
    expect(lines, c.out()).toHaveLength(5);
    const label = `#${id} track "Signed Up"`;
    expect(lines[0]).toMatch(new RegExp(`^[\\d:.]{12}  ${label} +← backend +accepted  user u1$`));
    expect(lines[1]).toMatch(/→ Local receiver +attempt 1 +http_error +HTTP 500 +\d+ ms {2}http:\/\/127\.0\.0\.1:\d+\/hook {2}next retry [\d:.]{12} \(in [\d.]+ s\)$/);
    expect(lines[2]).toMatch(/→ Local receiver +attempt 2 +success +HTTP 200 +\d+ ms {2}http:\/\/127\.0\.0\.1:\d+\/hook$/);
    expect(lines[3]).toMatch(/→ Local receiver +delivered after 2 attempts$/);
    expect(lines[4]).toMatch(/clock moved forward by 10 min \(engine time is \+10 min from real time\)$/);
    // Aligned: the arrows and the outcomes share their columns.
    const arrows = [0, 1, 2, 3].map((i) => lines[i]!.search(/[←→]/));
    expect(new Set(arrows).size).toBe(1);
    expect(lines[1]!.indexOf('http_error')).toBe(lines[2]!.indexOf('success'));
    expect(c.out()).not.toContain(source.id);

    c.abort();
    expect(await run).toBe(0);
  });

  it('counts rounds and attempts of a destination with several webhooks, as the detail pane does', async () => {
    const ok = await newReceiver(status(200));
    const bad = await newReceiver(status(500));
    const running = await serve();
    const core = running.core;
    must(core.createDestination({ name: 'Fan', enabled: true, webhooks: [{ url: ok.url }, { url: bad.url }, { url: bad.url }] }));
    const { c, run } = start(['tail', '--data-dir', running.dataDir]);
    await c.waitForErr('tailing Hookbench at');
    must(core.sendMessage({ type: 'track', call: { userId: 'u1', event: 'Fanned' }, destinations: ['Fan'] }));
    await c.waitForOut('delivered after');
    expect(tailLines(c.out()).at(-1)).toMatch(/→ Fan +delivered after 1 round · 3 attempts$/);
    c.abort();
    expect(await run).toBe(0);
  });

  it('counts the rounds and attempts made before it started, with several webhooks, from the serve', async () => {
    const gone = await newReceiver(status(404));
    const busy = await newReceiver(status(503));
    const running = await serve();
    const core = running.core;
    must(core.createDestination({ name: 'Fan', enabled: true, webhooks: [{ url: gone.url }, { url: busy.url }], retry: { schedule: [1000], jitter: 0 } }));
    const id = must(core.sendMessage({ type: 'track', call: { userId: 'u1', event: 'Fanned' }, destinations: ['Fan'] })).message.id;
    await settled(core, id); // round 1 went to both webhooks before the tail started
    const { c, run } = start(['tail', '--data-dir', running.dataDir]);
    await c.waitForErr('tailing Hookbench at');
    busy.respond = status(200);
    must(await core.advanceClock({ ms: 1500 }));
    await c.waitForOut('delivered after');
    // The tail saw one attempt (round 2, to the webhook that failed retryably) of three.
    expect(tailLines(c.out()).filter((l) => l.includes('→ Fan')).at(-1)).toMatch(/→ Fan +delivered after 2 rounds · 3 attempts$/);
    c.abort();
    expect(await run).toBe(0);
  });

  it('says when the engine clock is away from real time, as its times are engine times', async () => {
    const running = await serve();
    must(await running.core.advanceClock({ ms: 2 * 3_600_000 }));
    const { c, run } = start(['tail', '--data-dir', running.dataDir]);
    await c.waitForErr('Ctrl-C to stop');
    expect(c.err()).toContain('as they happen; times are engine times, 2 h ahead of real time (Reset offset in the workbench puts the clock back); Ctrl-C to stop\n');
    c.abort();
    expect(await run).toBe(0);
  });

  it('--json prints the raw events one per line', async () => {
    const rx = await newReceiver(status(200));
    const running = await serve();
    must(running.core.createDestination({ name: 'd', enabled: true, url: rx.url }));
    const { c, run } = start(['tail', '--json', '--data-dir', running.dataDir]);
    await c.waitForErr('tailing Hookbench at');
    const id = must(running.core.sendMessage({ type: 'identify', call: { userId: 'u2' }, destinations: ['d'] })).message.id;
    await c.waitForOut('"type":"deliveryUpdated"');
    c.abort();
    expect(await run).toBe(0);
    const events = c
      .out()
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as EngineEvent);
    const core = ['messageAccepted', 'attemptStarted', 'attemptFinished', 'deliveryUpdated'];
    expect(events.map((e) => e.type).filter((t) => core.includes(t))).toEqual(core); // (and any other kinds of event, raw)
    expect(events.find((e) => e.type === 'messageAccepted')).toMatchObject({ message: { id, type: 'identify', userId: 'u2' } });
    expect(events.find((e) => e.type === 'deliveryUpdated')).toMatchObject({ delivery: { messageId: id, status: 'delivered' } });
  });

  it('reconnects when the serve restarts (a new port, found through server.json; the token is the data dir\'s)', async () => {
    const rx = await newReceiver(status(200));
    const first = await serve();
    const dataDir = first.dataDir;
    const { c, run } = start(['tail', '--data-dir', dataDir]);
    await c.waitForErr('tailing Hookbench at');
    await first.stop();
    await c.waitForErr(`lost the connection to Hookbench at ${first.info.url} (server stopping); reconnecting...`);
    await c.waitForErr('waiting: '); // "cannot connect to …" or "no hookbench serve runs on …", whichever it sees first

    const second = await serve(dataDir);
    expect(second.info.token).toBe(first.info.token); // kept across restarts (a bookmarked UI URL keeps working)
    expect(second.info.url).not.toBe(first.info.url);
    await c.waitForErr(`reconnected to Hookbench at ${second.info.url}`);
    must(second.core.createDestination({ name: 'again', enabled: true, url: rx.url }));
    const id = must(second.core.sendMessage({ type: 'page', call: { userId: 'u3' }, destinations: ['again'] })).message.id;
    await settled(second.core, id);
    await c.waitForOut('delivered after 1 attempt');
    expect(tailLines(c.out()).at(-1)).toMatch(new RegExp(`#${id} page +→ again +delivered after 1 attempt$`));
    c.abort();
    expect(await run).toBe(0);
  });

  it('names the messages it did not see accepted (asked of the serve), and exits 2 without a serve', async () => {
    const rx = await newReceiver(sequence(503, 200));
    const running = await serve();
    must(running.core.createDestination({ name: 'late', enabled: true, url: rx.url }));
    const id = must(running.core.sendMessage({ type: 'track', call: { userId: 'u4', event: 'Before' }, destinations: ['late'] })).message.id;
    await settled(running.core, id); // retrying: the tail starts after it was accepted
    const { c, run } = start(['tail', '--data-dir', running.dataDir]);
    await c.waitForErr('tailing Hookbench at');
    must(running.core.retryNow({ id }));
    await c.waitForOut('delivered after 2 attempts');
    expect(c.out()).toMatch(new RegExp(`#${id} track "Before" +→ late +attempt 2 +success`));
    c.abort();
    expect(await run).toBe(0);

    const none = captureIO();
    expect(await runCli(['tail', '--data-dir', newDataDir()], none.io)).toBe(2);
    expect(none.err()).toContain('no running Hookbench found');
  });
});

describe('hookbench show', () => {
  it('one message from the running serve: body bytes, source by name, deliveries and attempts; --body and --json', async () => {
    const rx = await newReceiver(sequence(500, 200));
    const running = await serve();
    const core = running.core;
    const source = must(core.createSource({ name: 'backend', kind: 'server' }));
    must(core.createDestination({ name: 'Local receiver', enabled: true, sources: ['backend'], url: rx.url, sharedSecret: 's3cret' }));
    const id = must(core.sendMessage({ type: 'track', call: { userId: 'u1', event: 'Signed Up', properties: { plan: 'pro' } }, source: 'backend' })).message.id;
    await settled(core, id);
    must(await core.advanceClock({ ms: 600_000 }));
    const detail = await settled(core, id);
    expect(detail.message.status).toBe('delivered');

    const c = captureIO();
    expect(await runCli(['show', `#${id}`, '--data-dir', running.dataDir], c.io)).toBe(0);
    const out = c.out();
    expect(out).toMatch(new RegExp(`^message #${id}  track "Signed Up"  delivered\\n`));
    expect(out).toContain('  source:     backend\n');
    expect(out).not.toContain(source.id);
    expect(out).toContain(`body (${rx.captured[0]!.body.length} bytes, exactly as sent and signed; --body prints them alone):\n${rx.captured[0]!.body.toString('utf8')}\n`);
    expect(out).toContain('→ Local receiver: delivered after 2 attempts');
    expect(out).toMatch(/ {2}attempt 1 {2}\S+Z {2}http:\/\/127\.0\.0\.1:\d+\/hook {2}http_error {2}HTTP 500 {2}\d+ ms\n {6}request headers: {2}.*x-signature: [0-9a-f]{40}/);
    expect(out).toMatch(/ {2}attempt 2 {2}\S+Z {2}http:\/\/127\.0\.0\.1:\d+\/hook {2}success {2}HTTP 200/);
    // The answer's headers as well as the request's: what the endpoint said back (Retry-After, Location...).
    expect(out).toMatch(/HTTP 500 .*\n {6}request headers: .*\n {6}response headers: .*x-answer: 500.*\n {6}response body: {4}\(empty\)\n/);

    const body = captureIO();
    expect(await runCli(['show', String(id), '--body', '--data-dir', running.dataDir], body.io)).toBe(0);
    expect(Buffer.from(body.out(), 'utf8').equals(rx.captured[1]!.body)).toBe(true);

    const json = captureIO();
    expect(await runCli(['show', String(id), '--json', '--data-dir', running.dataDir], json.io)).toBe(0);
    expect(JSON.parse(json.out())).toMatchObject({ message: { id, status: 'delivered' }, deliveries: [{ destinationName: 'Local receiver', attempts: 2 }] });

    const missing = captureIO();
    expect(await runCli(['show', '999', '--data-dir', running.dataDir], missing.io)).toBe(1);
    expect(missing.err()).toContain(`no message #999 in the serve at ${running.info.url}`);
    const bad = captureIO();
    expect(await runCli(['show', 'abc', '--data-dir', running.dataDir], bad.io)).toBe(2);
    expect(bad.err()).toContain("<id>: expected the message's number");
    const huge = captureIO();
    expect(await runCli(['show', '99999999999999999999', '--data-dir', running.dataDir], huge.io)).toBe(2);
    expect(huge.err()).toContain("<id>: 99999999999999999999 is too large for a message's number (at most 15 digits)");
    const zero = captureIO();
    expect(await runCli(['show', '0', '--data-dir', running.dataDir], zero.io)).toBe(2);
    expect(zero.err()).toBe('hookbench show: <id>: must be more than 0 (got 0)\n');
  });

  it('a delivery whose retry window ran out says why no further attempt came', async () => {
    const rx = await newReceiver(status(503));
    const running = await serve();
    const core = running.core;
    must(core.createDestination({ name: 'Down', enabled: true, url: rx.url, retry: { schedule: [60_000, 120_000], windowMs: 90_000, jitter: 0 } }));
    const id = must(core.sendMessage({ type: 'track', call: { userId: 'u1', event: 'Signed Up' }, destinations: ['Down'] })).message.id;
    await settled(core, id);
    must(await core.advanceClock({ ms: 600_000 }));
    await settled(core, id);
    const c = captureIO();
    expect(await runCli(['show', `#${id}`, '--data-dir', running.dataDir], c.io)).toBe(0);
    expect(c.out()).toMatch(/→ Down: failed: retry window exhausted after 2 attempts; no 3rd attempt: it would have fallen due 3 min( \d+ s)? after the first, past the 1 min 30 s retry window\n/);
  });

  it('a delivery held by a disabled destination says so, through the serve and from the data dir', async () => {
    const running = await serve();
    const core = running.core;
    must(core.createDestination({ name: 'Off', enabled: false, url: 'http://127.0.0.1:9/hook' }));
    const id = must(core.sendMessage({ type: 'track', call: { userId: 'u1', event: 'Held' }, destinations: ['Off'] })).message.id;
    const held = /→ Off: queued after 0 attempts; next attempt at \S+; held: Off is disabled: its retries are held until it is enabled\n/;
    const c = captureIO();
    expect(await runCli(['show', String(id), '--data-dir', running.dataDir], c.io)).toBe(0);
    expect(c.out()).toMatch(held);
    await running.stop();
    const local = captureIO();
    expect(await runCli(['show', String(id), '--data-dir', running.dataDir], local.io)).toBe(0);
    expect(local.out()).toMatch(held);
  });

  it('without a serve it reads the data dir itself; an empty dir says so', async () => {
    const rx = await newReceiver(status(200));
    const running = await serve();
    must(running.core.createDestination({ name: 'd', enabled: true, url: rx.url }));
    const id = must(running.core.sendMessage({ type: 'identify', call: { userId: 'u9', traits: { plan: 'pro' } }, destinations: ['d'] })).message.id;
    await settled(running.core, id);
    await running.stop();

    const c = captureIO();
    expect(await runCli(['show', String(id), '--data-dir', running.dataDir], c.io)).toBe(0);
    expect(c.out()).toContain(`message #${id}  identify  delivered`);
    expect(c.out()).toContain('  source:     none (sent directly from Compose, the API or the CLI)');
    expect(c.out()).toContain('→ d: delivered after 1 attempt');

    const empty = captureIO();
    const dir = newDataDir();
    expect(await runCli(['show', '1', '--data-dir', dir], empty.io)).toBe(2);
    expect(empty.err()).toContain(`no Hookbench data in ${dir} and no serve runs there`);
  });
});

describe('hookbench send through a running serve (--data-dir of a serve)', () => {
  const TRACK = JSON.stringify({ userId: 'u1', event: 'Signed Up' });
  const attemptLines = (out: string) => out.split('\n').filter((l) => l.startsWith('attempt '));

  it('sends through the serve instead of failing on its lock: attempts as they happen, the message kept there', async () => {
    const rx = await newReceiver(sequence(500, 200));
    const running = await serve();
    const c = captureIO();
    const run = runCli(['send', 'track', '--to', rx.url, '--secret', 's3cret', '--header', 'X-Env: dev', '--data', TRACK, '--data-dir', running.dataDir], c.io);
    await c.waitForOut('next retry at'); // the serve's first round failed; its engine waits ~5 s of real time
    must(await running.core.advanceClock({ ms: 60_000 })); // the retry falls due now (the test does not wait 5 s)
    expect(await run).toBe(0);
    expect(c.err()).toBe('');

    const out = c.out();
    const id = Number(/^sending track #(\d+) /.exec(out)![1]);
    expect(out).toContain(`through hookbench serve at ${running.info.url} (pid ${process.pid}), destination "hookbench send"; later: hookbench show ${id} --data-dir ${running.dataDir}\n`);
    const lines = attemptLines(out);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^attempt 1 {2}http:\S+ {2}http_error {2}HTTP 500 {2}\d+ ms {2}signature [0-9a-f]{40}$/);
    expect(lines[1]).toMatch(/^attempt 2 {2}http:\S+ {2}success {2}HTTP 200/);
    expect(out).toMatch(/attempt 1 .*\n {2}next retry at \S+Z \(in [^)]+\)\nattempt 2 /);
    expect(out.trimEnd().split('\n').at(-1)).toMatch(/^delivered after 2 attempts/);
    expect(rx.captured[1]!.headers['x-env']).toBe('dev');

    const detail = must(running.core.getMessage({ id }));
    expect(detail.message).toMatchObject({ type: 'track', status: 'delivered' });
    expect(detail.deliveries).toMatchObject([{ destinationName: 'hookbench send', status: 'delivered', attempts: 2 }]);
    const [dest] = must(running.core.listDestinations({ owner: 'send' })).items;
    expect(dest).toMatchObject({ name: 'hookbench send', enabled: false, sourceIds: [] });
  });

  it('--fast --json plays the schedule on the serve clock; a second send at the same time takes "hookbench send 2"', async () => {
    const rx = await newReceiver(status(500));
    const running = await serve();
    // A send in progress elsewhere holds "hookbench send" (enabled).
    must(running.core.createDestination({ name: 'hookbench send', enabled: true, url: 'http://127.0.0.1:9/busy' }));
    const c = captureIO();
    expect(await runCli(['send', 'track', '--to', rx.url, '--data', TRACK, '--fast', '--max-attempts', '3', '--json', '--data-dir', running.dataDir], c.io)).toBe(1);
    const events = c
      .out()
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(events[0]).toMatchObject({ type: 'message', destination: 'hookbench send 2', clock: 'virtual', via: { url: running.info.url, pid: process.pid } });
    expect(events.filter((e) => e['type'] === 'attempt').map((e) => e['attemptNumber'])).toEqual([1, 2, 3]);
    expect(events.filter((e) => e['type'] === 'retry')).toHaveLength(2);
    expect(events.at(-1)).toMatchObject({ type: 'result', delivered: false, status: 'failed', reason: 'max attempts reached (3)', attempts: 3, exitCode: 1 });
    expect(rx.captured).toHaveLength(3);
    expect(must(running.core.getClock()).offsetMs).toBeGreaterThan(20_000); // moved by the retry delays: 5 s + 30 s, each ±20 %, less the real time spent
  });

  it('Ctrl-C while waiting for a retry cancels the message on the serve: exit 1, interrupted', async () => {
    const rx = await newReceiver(status(503));
    const running = await serve();
    const c = captureIO();
    const run = runCli(['send', 'track', '--to', rx.url, '--data', TRACK, '--data-dir', running.dataDir], c.io);
    await c.waitForOut('next retry at');
    c.abort();
    expect(await run).toBe(1);
    expect(c.out().trimEnd().split('\n').at(-1)).toBe('interrupted after 1 attempt: not delivered (cancelled: no further retries)');
    const id = Number(/^sending track #(\d+) /.exec(c.out())![1]);
    expect(must(running.core.getMessage({ id })).deliveries[0]).toMatchObject({ status: 'cancelled', reason: 'cancelled by user' });
    expect(must(running.core.listDestinations({ owner: 'send' })).items[0]).toMatchObject({ name: 'hookbench send', enabled: false });
  });

  it('bad input is refused before anything reaches the serve', async () => {
    const running = await serve();
    const c = captureIO();
    expect(await runCli(['send', 'track', '--to', 'ftp://nope', '--data', TRACK, '--data-dir', running.dataDir], c.io)).toBe(2);
    expect(c.err()).toContain('(--to)');
    expect(must(running.core.listDestinations({ owner: 'all' })).items).toEqual([]);
  });
});

describe('hookbench send follows the rule of the other commands: through the serve on the default data dir', () => {
  const TRACK = JSON.stringify({ userId: 'u1', event: 'Signed Up' });

  /** A serve on a temp data dir that is the default one ($HOOKBENCH_DATA), as a user's `npm start` is. */
  async function defaultServe(): Promise<RunningServe> {
    const running = await serve();
    vi.stubEnv('HOOKBENCH_DATA', running.dataDir);
    onCleanup(() => void vi.unstubAllEnvs());
    return running;
  }

  it('without --data-dir, the message lands in that serve: kept there and shown by tail', async () => {
    const rx = await newReceiver(status(200));
    const running = await defaultServe();
    const tail = start(['tail']);
    await tail.c.waitForErr(`tailing Hookbench at ${running.info.url}`);

    const c = captureIO();
    expect(await runCli(['send', 'track', '--to', rx.url, '--data', TRACK], c.io)).toBe(0);
    expect(c.err()).toBe('');
    const id = Number(/^sending track #(\d+) /.exec(c.out())![1]);
    // The data dir was not named, so the hint does not name it either.
    expect(c.out()).toContain(`through hookbench serve at ${running.info.url} (pid ${process.pid}), destination "hookbench send"; later: hookbench show ${id}\n`);
    expect(c.out().trimEnd().split('\n').at(-1)).toBe('delivered after 1 attempt');

    const detail = must(running.core.getMessage({ id }));
    expect(detail.message).toMatchObject({ type: 'track', status: 'delivered' });
    expect(detail.deliveries).toMatchObject([{ destinationName: 'hookbench send', status: 'delivered', attempts: 1 }]);
    expect(rx.captured).toHaveLength(1);

    await tail.c.waitForOut('delivered after 1 attempt');
    const lines = tailLines(tail.c.out()).filter((l) => l.includes(`#${id} track "Signed Up"`));
    expect(lines.join('\n')).toMatch(/attempt 1 +success +HTTP 200/);
  });

  it('--fast moves that serve\'s clock and says so; with no serve there, send runs in-process as before', async () => {
    // The second retry is due 30 s (±20 %) after the first: a jump the real clock cannot overtake.
    const rx = await newReceiver(sequence(500, 500, 200));
    const running = await defaultServe();
    const c = captureIO();
    expect(await runCli(['send', 'track', '--to', rx.url, '--data', TRACK, '--fast'], c.io)).toBe(0);
    expect(must(running.core.getClock()).offsetMs).toBeGreaterThan(20_000);
    const lines = c.out().trimEnd().split('\n');
    expect(lines.at(-2)).toMatch(/^delivered after 3 attempts over /);
    expect(lines.at(-1)).toMatch(/^the serve's engine clock is now \d.* ahead of real time \(--fast moved it; Reset offset in the workbench's top bar puts it back\)$/);
    const id = Number(/^sending track #(\d+) /.exec(c.out())![1]);
    expect(must(running.core.getMessage({ id })).deliveries).toMatchObject([{ status: 'delivered', attempts: 3 }]);

    // --json says it too, in the result line: a script going on with that serve knows its clock stays moved.
    const again = await newReceiver(sequence(500, 200));
    const j = captureIO();
    expect(await runCli(['send', 'track', '--to', again.url, '--data', TRACK, '--fast', '--json'], j.io)).toBe(0);
    const result = JSON.parse(j.out().trimEnd().split('\n').at(-1)!) as { type: string; clockOffsetMs?: number };
    expect(result.type).toBe('result');
    expect(result.clockOffsetMs).toBe(must(running.core.getClock()).offsetMs);

    await running.stop();
    const alone = captureIO();
    expect(await runCli(['send', 'track', '--to', rx.url, '--data', TRACK], alone.io)).toBe(0);
    expect(alone.out()).toMatch(/^sending track [0-9a-f-]{36} /); // a throw-away data dir: no number to show later
    expect(alone.out()).not.toContain('through hookbench serve');
    expect(rx.captured).toHaveLength(4);
  });
});
