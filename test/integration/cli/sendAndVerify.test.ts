/**
 * The `hookbench` CLI: `send` and `verify` run in-process through runCli (the TypeScript source, with an
 * injected CliIO), plus a few end-to-end checks that spawn the built `node dist/main/cli.js`.
 */
import { execFile, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../../main/cli/program.js';
import { SERVE_MALLOC_ARENA_MAX, SERVE_V8_FLAGS } from '../../../main/cli/relaunch.js';
import { createCore } from '../../../main/app/createCore.js';
import { startReceiver, status, type Respond, type TestReceiver } from '../../helpers/receiver.js';
import { captureIO, type CapturedIO } from '../../helpers/cliIO.js';
import { tempDir } from '../../helpers/tempDir.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const TRACK = JSON.stringify({ userId: 'u1', event: 'Signed Up', properties: { plan: 'pro' } });

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const capture = captureIO;
type Captured = CapturedIO;

async function receiver(respond: Respond = status(200)): Promise<TestReceiver> {
  const rx = await startReceiver(respond);
  cleanups.push(() => rx.close());
  return rx;
}

/** A temp root for the throw-away data dirs, so a test can see that `send` removed its own. */
function tmpRoot(): string {
  const t = tempDir('hookbench-cli-test-');
  cleanups.push(t.cleanup);
  return t.dir;
}

// send goes through a serve running on the default data dir: here the default is an empty temp dir, so a
// workbench running on this machine is neither used nor written to (spawned CLIs inherit it too).
beforeEach(() => {
  vi.stubEnv('HOOKBENCH_DATA', tmpRoot());
  cleanups.push(() => void vi.unstubAllEnvs());
});

const hmacHex = (secret: string, body: Uint8Array) => createHmac('sha1', secret).update(body).digest('hex');
const attemptLines = (out: string) => out.split('\n').filter((l) => l.startsWith('attempt '));

describe('hookbench send (in-process)', () => {
  it('delivers, prints the attempt with status and signature, exits 0 and removes its throw-away data dir', async () => {
    const rx = await receiver(status(200));
    const root = tmpRoot();
    const c = capture();
    const code = await runCli(['send', 'track', '--to', rx.url, '--secret', 's3cret', '--header', 'X-Env: dev', '--data', TRACK], c.io, {
      send: { tmpRoot: root },
    });
    expect(c.err()).toBe('');
    expect(code).toBe(0);
    expect(rx.captured).toHaveLength(1);
    const req = rx.captured[0]!;
    const signature = hmacHex('s3cret', req.body);
    expect(req.headers['x-signature']).toBe(signature);
    expect(req.headers['x-env']).toBe('dev');
    const lines = attemptLines(c.out());
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(rx.url);
    expect(lines[0]).toContain('success');
    expect(lines[0]).toContain('HTTP 200');
    expect(lines[0]).toMatch(/\d+ ms/);
    expect(lines[0]).toContain(`signature ${signature}`);
    expect(c.out()).toContain(`body: ${req.body.toString('utf8')}`);
    expect(c.out().trimEnd().split('\n').at(-1)).toBe('delivered after 1 attempt');
    expect(readdirSync(root)).toEqual([]);
  });

  it('with several webhooks counts rounds and attempts, in the result and in hookbench show, as the detail pane does', async () => {
    const ok = await receiver(status(200));
    const bad = await receiver(status(500));
    const dataDir = join(tmpRoot(), 'kept');
    const c = capture();
    expect(await runCli(['send', 'track', '--to', ok.url, bad.url, bad.url, '--data', TRACK, '--data-dir', dataDir], c.io)).toBe(0);
    expect(attemptLines(c.out())).toHaveLength(3);
    expect(c.out().trimEnd().split('\n').at(-1)).toBe('delivered after 1 round · 3 attempts');
    const shown = capture();
    expect(await runCli(['show', '1', '--data-dir', dataDir], shown.io)).toBe(0);
    expect(shown.out()).toContain('→ hookbench send: delivered after 1 round · 3 attempts\n');
  });

  it('--json with several webhooks: the result counts rounds (attempts) and POSTs (webhookAttempts), one attempt line each', async () => {
    const ok = await receiver(status(200));
    const bad = await receiver(status(500));
    const c = capture();
    expect(await runCli(['send', 'track', '--to', ok.url, bad.url, bad.url, '--data', TRACK, '--json'], c.io)).toBe(0);
    const events = c.out().trimEnd().split('\n').map((l) => JSON.parse(l) as { type: string });
    expect(events.filter((e) => e.type === 'attempt')).toHaveLength(3);
    expect(events.at(-1)).toMatchObject({ type: 'result', delivered: true, attempts: 1, webhookAttempts: 3 });
  });

  it('against a 500 receiver with --fast --max-attempts 3: 3 attempts, retry times printed, exit 1', async () => {
    const rx = await receiver(status(500));
    const root = tmpRoot();
    const c = capture();
    const code = await runCli(['send', 'track', '--to', rx.url, '--data', TRACK, '--fast', '--max-attempts', '3'], c.io, { send: { tmpRoot: root } });
    expect(code).toBe(1);
    expect(rx.captured).toHaveLength(3);
    const lines = attemptLines(c.out());
    expect(lines.map((l) => l.split(/\s+/)[1])).toEqual(['1', '2', '3']);
    for (const l of lines) expect(l).toContain('http_error  HTTP 500');
    expect(c.out().match(/next retry at \d{4}-\d\d-\d\dT[\d:.]+Z \(in [^)]+ of virtual time\)/g)).toHaveLength(2);
    expect(c.out().trimEnd().split('\n').at(-1)).toMatch(/^failed: max attempts reached \(3\) after 3 attempts/);
    expect(readdirSync(root)).toEqual([]);
  });

  it('a send that runs out of its retry window says why no further attempt came: its due time fell past the window', async () => {
    const rx = await receiver(status(503));
    const c = capture();
    const code = await runCli(['send', 'track', '--to', rx.url, '--data', TRACK, '--fast'], c.io, { send: { tmpRoot: tmpRoot() } });
    expect(code).toBe(1);
    const n = attemptLines(c.out()).length;
    expect(c.out().trimEnd().split('\n').at(-1)).toMatch(
      new RegExp(`^failed: retry window exhausted after ${n} attempts over [^;]+; no ${n + 1}th attempt: it would have fallen due \\d+ h( \\d+ min)? after the first, past the 4 h retry window$`),
    );
  });

  it('--fast plays the whole default 4 h schedule against a 503 receiver in seconds (--json lines)', async () => {
    const rx = await receiver(status(503));
    const c = capture();
    const started = Date.now();
    const code = await runCli(['send', 'track', '--to', rx.url, '--data', TRACK, '--fast', '--json'], c.io, { send: { tmpRoot: tmpRoot() } });
    const elapsed = Date.now() - started;
    expect(code).toBe(1);
    const events = c
      .out()
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(events[0]).toMatchObject({ type: 'message', messageType: 'track', clock: 'virtual', webhooks: [rx.url], timeoutMs: 5000, retry: { windowMs: 14_400_000, maxAttempts: null } });
    const attempts = events.filter((e) => e['type'] === 'attempt');
    expect(attempts.length).toBeGreaterThanOrEqual(6);
    expect(rx.captured).toHaveLength(attempts.length);
    expect(attempts.every((a) => a['statusCode'] === 503 && a['outcome'] === 'http_error')).toBe(true);
    // Each retry follows the default schedule (±20 % jitter) in virtual time, all within the 4 h window.
    const at = (i: number, k: 'startedAt' | 'finishedAt') => Date.parse(attempts[i]![k] as string);
    const schedule = [5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 7_200_000];
    for (let i = 1; i < attempts.length; i++) {
      const base = schedule[Math.min(i, schedule.length) - 1]!;
      const gap = at(i, 'startedAt') - at(i - 1, 'finishedAt');
      expect(gap).toBeGreaterThanOrEqual(base * 0.8 - 1);
      expect(gap).toBeLessThanOrEqual(base * 1.2 + 1_000);
    }
    expect(at(attempts.length - 1, 'startedAt') - at(0, 'startedAt')).toBeLessThanOrEqual(4 * 3_600_000);
    expect(events.filter((e) => e['type'] === 'retry')).toHaveLength(attempts.length - 1);
    expect(events.at(-1)).toMatchObject({ type: 'result', delivered: false, status: 'failed', reason: 'retry window exhausted', attempts: attempts.length, exitCode: 1 });
    expect(elapsed).toBeLessThan(15_000);
  });

  it('bad --data JSON: exit 2 naming the problem and its position, nothing sent', async () => {
    const rx = await receiver();
    const root = tmpRoot();
    const c = capture();
    const code = await runCli(['send', 'track', '--to', rx.url, '--data', '{"userId": "u1", "event": }'], c.io, { send: { tmpRoot: root } });
    expect(code).toBe(2);
    expect(c.err()).toContain('--data: invalid JSON at line 1, column 27 (position 26)');
    expect(c.err()).toContain('unexpected "}": expected a value');
    expect(c.out()).toBe('');
    expect(rx.captured).toHaveLength(0);
    expect(readdirSync(root)).toEqual([]);
  });

  it('--data @file is read; a typo in a field name is refused (strict)', async () => {
    const rx = await receiver();
    const dir = tmpRoot();
    const file = join(dir, 'call.json');
    writeFileSync(file, '{"userid": "u1", "event": "E"}');
    const c = capture();
    const code = await runCli(['send', 'track', '--to', rx.url, '--data', `@${file}`], c.io, { send: { tmpRoot: dir } });
    expect(code).toBe(2);
    expect(c.err()).toContain('userid: unknown field for a track call (did you mean "userId"?)');
    expect(rx.captured).toHaveLength(0);
  });

  it('6 --to: exit 2 naming webhooks[5] and the limit 5', async () => {
    const c = capture();
    const urls = Array.from({ length: 6 }, (_, i) => `http://127.0.0.1:9/hook${i}`);
    const code = await runCli(['send', 'track', ...urls.flatMap((u) => ['--to', u]), '--data', TRACK], c.io, { send: { tmpRoot: tmpRoot() } });
    expect(code).toBe(2);
    expect(c.err()).toContain('webhooks[5]: at most 5 webhooks (got 6) (--to)');
  });

  it('flags refused for several problems: each problem on a line of its own with its flag, and in --json its problems', async () => {
    const argv = ['send', 'track', '--to', 'localhost:3000/hook', '--to', 'ftp://x', '--secret', '', '--data', TRACK];
    const c = capture();
    expect(await runCli(argv, c.io, { send: { tmpRoot: tmpRoot() } })).toBe(2);
    expect(c.err().trimEnd().split('\n')).toEqual([
      'hookbench send: sharedSecret: must not be empty (omit it or use null for no signing) (and 2 more problems) (--secret)',
      // Each names what it got, so the user sees which --to is which.
      '  - webhooks[0].url: must be an absolute http:// or https:// URL (or receiver:<name>); got "localhost:3000/hook", without a scheme: did you mean http://localhost:3000/hook? (--to)',
      '  - webhooks[1].url: must be an absolute http:// or https:// URL (or receiver:<name>); got ftp:// instead (--to)',
    ]);
    const j = capture();
    expect(await runCli([...argv, '--json'], j.io, { send: { tmpRoot: tmpRoot() } })).toBe(2);
    const line = JSON.parse(j.out()) as { message: string; field: string; problems: { field: string; message: string }[] };
    expect(line.field).toBe('sharedSecret');
    expect(line.message).toMatch(/\(and 2 more problems\)/);
    expect(line.problems.map((p) => p.field)).toEqual(['webhooks[0].url', 'webhooks[1].url']);
  });

  it('exit 2 on a bad URL, bad header syntax, a reserved header, and an unknown type', async () => {
    const cases: [string[], string][] = [
      [['send', 'track', '--to', 'localhost:3000/hook', '--data', TRACK], 'webhooks[0].url: must be an absolute http:// or https:// URL'],
      [['send', 'track', '--to', 'http://127.0.0.1:9/h', '--header', 'X-Env dev', '--data', TRACK], '--header "X-Env dev": expected "Name: value"'],
      [['send', 'track', '--to', 'http://127.0.0.1:9/h', '--header', 'Host: x', '--data', TRACK], 'webhooks[0].headers.Host: header "Host" is set by Hookbench'],
      [['send', 'trak', '--to', 'http://127.0.0.1:9/h'], "argument 'type'"],
      [['send', 'track', '--data', TRACK], "required option '--to <url...>' not specified"],
      [['send', 'track', '--to', 'http://127.0.0.1:9/h', '--timeout', 'soon'], "option '--timeout <ms>' argument 'soon' is invalid"],
      // Every refused flag is named, not only the first.
      [
        ['send', 'track', '--to', 'http://127.0.0.1:9/h', '--timeout', 'abc', '--max-attempts', '0'],
        "error: option '--timeout <ms>' argument 'abc' is invalid. expected milliseconds (5000) or a whole number with a unit (5s, 30m, 4h, 2d), from 1 to 120000 ms (2 min)\nerror: option '--max-attempts <n>' argument '0' is invalid. expected a whole number from 1 to 1000\n",
      ],
    ];
    for (const [argv, message] of cases) {
      const c = capture();
      expect(await runCli(argv, c.io, { send: { tmpRoot: tmpRoot() } }), argv.join(' ')).toBe(2);
      expect(c.err()).toContain(message);
    }
  });

  it('a mistyped duration or count names the flag, its range and the value: negative, over the limit, a unit it lacks', async () => {
    const refusal = async (...flags: string[]) => {
      const c = capture();
      expect(await runCli(['send', 'track', '--to', 'http://127.0.0.1:9/h', '--data', TRACK, ...flags], c.io, { send: { tmpRoot: tmpRoot() } }), flags.join(' ')).toBe(2);
      return c.err().split('\n')[0];
    };
    expect(await refusal('--timeout', '-1')).toBe("error: option '--timeout <ms>' argument '-1' is invalid. a duration cannot be negative: give one from 1 to 120000 ms (2 min)");
    expect(await refusal('--timeout', '999999999999999999999')).toBe("error: option '--timeout <ms>' argument '999999999999999999999' is invalid. must be from 1 to 120000 ms (2 min)");
    expect(await refusal('--timeout', '3m')).toBe("error: option '--timeout <ms>' argument '3m' is invalid. must be from 1 to 120000 ms (2 min)");
    expect(await refusal('--retry-window', '40d')).toBe("error: option '--retry-window <ms>' argument '40d' is invalid. must be from 0 to 2592000000 ms (30 days)");
    expect(await refusal('--max-attempts', '5000')).toBe("error: option '--max-attempts <n>' argument '5000' is invalid. expected a whole number from 1 to 1000");
  });

  it('with --json a refused flag is one JSON error line on stdout and nothing on stderr, as the command\'s own refusals are', async () => {
    const c = capture();
    expect(await runCli(['send', 'track', '--to', 'http://127.0.0.1:9/h', '--data', TRACK, '--timeout', '-1', '--max-attempts', '0', '--json'], c.io, { send: { tmpRoot: tmpRoot() } })).toBe(2);
    expect(c.err()).toBe('');
    expect(c.out().split('\n')).toEqual([expect.any(String), '']); // one line
    expect(JSON.parse(c.out())).toEqual({
      type: 'error',
      code: 'usage',
      message: "option '--timeout <ms>' argument '-1' is invalid. a duration cannot be negative: give one from 1 to 120000 ms (2 min) (and 1 more problem)",
      problems: [{ code: 'usage', message: "option '--max-attempts <n>' argument '0' is invalid. expected a whole number from 1 to 1000" }],
    });
    const typo = capture();
    expect(await runCli(['send', 'track', '--to', 'http://127.0.0.1:9/h', '--retry-windw', '5', '--json'], typo.io)).toBe(2);
    expect(JSON.parse(typo.out())).toEqual({ type: 'error', code: 'usage', message: "unknown option '--retry-windw' (Did you mean --retry-window?)" });
    const importing = capture();
    expect(await runCli(['import', '--json'], importing.io)).toBe(2);
    expect(JSON.parse(importing.out())).toEqual({ type: 'error', code: 'usage', message: "missing required argument 'file'" });
    // Without --json, commander's own words on stderr.
    const plain = capture();
    expect(await runCli(['send', 'track', '--to', 'http://127.0.0.1:9/h', '--timeout', '-1'], plain.io)).toBe(2);
    expect(plain.out()).toBe('');
    expect(plain.err()).toContain("error: option '--timeout <ms>' argument '-1' is invalid.");
  });

  it('one attempt or no window is said as no retries, in words and in the --json message line', async () => {
    const rx = await receiver(status(503));
    const once = capture();
    expect(await runCli(['send', 'track', '--to', rx.url, '--data', TRACK, '--max-attempts', '1', '--timeout', '2s'], once.io, { send: { tmpRoot: tmpRoot() } })).toBe(1);
    expect(once.out().split('\n')[0]).toMatch(/; timeout 2 s; no retries \(--max-attempts 1\); real clock$/);
    const windowless = capture();
    expect(await runCli(['send', 'track', '--to', rx.url, '--data', TRACK, '--retry-window', '0'], windowless.io, { send: { tmpRoot: tmpRoot() } })).toBe(1);
    expect(windowless.out().split('\n')[0]).toMatch(/; no retries \(--retry-window 0\); real clock$/);
    const j = capture();
    expect(await runCli(['send', 'track', '--to', rx.url, '--data', TRACK, '--max-attempts', '3', '--retry-window', '1m', '--fast', '--json'], j.io, { send: { tmpRoot: tmpRoot() } })).toBe(1);
    expect(JSON.parse(j.out().split('\n')[0]!)).toMatchObject({ type: 'message', timeoutMs: 5000, retry: { windowMs: 60_000, maxAttempts: 3 } });
  });

  it('a duration in days is read as one: --retry-window 2d', async () => {
    const rx = await receiver();
    const c = capture();
    expect(await runCli(['send', 'track', '--to', rx.url, '--data', TRACK, '--retry-window', '2d', '--fast'], c.io, { send: { tmpRoot: tmpRoot() } })).toBe(0);
    expect(c.out()).toContain('retries for up to 48 h');
  });

  it('Ctrl-C during a real-clock retry wait: closes the core, exits 1, removes the data dir', async () => {
    const rx = await receiver(status(503));
    const root = tmpRoot();
    const c = capture();
    const run = runCli(['send', 'track', '--to', rx.url, '--data', TRACK], c.io, { send: { tmpRoot: root } });
    await c.waitForOut('next retry at'); // the first round failed; the engine now waits ~5 s of real time
    c.abort();
    expect(await run).toBe(1);
    expect(rx.captured).toHaveLength(1);
    expect(c.out()).toMatch(/\(in \d[^)]* s\)\n/); // real clock: no "of virtual time"
    expect(c.out().trimEnd().split('\n').at(-1)).toBe('interrupted after 1 attempt: not delivered (cancelled: no further retries)');
    expect(readdirSync(root)).toEqual([]);
  });

  it('--fast on a kept --data-dir says it left that data dir\'s clock moved, in words and as clockOffsetMs', async () => {
    const rx = await receiver(status(503));
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const c = capture();
    expect(await runCli(['send', 'track', '--to', rx.url, '--data', TRACK, '--data-dir', dir, '--fast', '--max-attempts', '2'], c.io)).toBe(1);
    expect(c.out().trimEnd().split('\n').at(-1)).toMatch(/^the data dir's engine clock is now \d.* ahead of real time \(--fast moved it; a serve started on it begins there: Reset offset in its top bar puts it back\)$/);
    const j = capture();
    expect(await runCli(['send', 'track', '--to', rx.url, '--data', TRACK, '--data-dir', dir, '--fast', '--max-attempts', '2', '--json'], j.io)).toBe(1);
    const result = JSON.parse(j.out().trimEnd().split('\n').at(-1)!) as { type: string; clockOffsetMs?: number };
    const core = createCore({ dataDir: dir, autoStart: false });
    try {
      const clock = core.getClock();
      expect(result).toMatchObject({ type: 'result', clockOffsetMs: clock.ok ? clock.value.offsetMs : NaN });
    } finally {
      await core.close();
    }
  });

  it('--data-dir records the message there and leaves its destination "hookbench send" disabled, reused by the next send', async () => {
    const rx = await receiver();
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const c = capture();
    expect(await runCli(['send', 'identify', '--to', rx.url, '--data', '{"userId":"u9","traits":{"plan":"pro"}}', '--data-dir', dir, '--max-attempts', '2'], c.io)).toBe(0);
    expect(c.out()).toMatch(/^sending identify #1 /); // the message's number, for hookbench show
    const again = capture();
    expect(await runCli(['send', 'identify', '--to', rx.url, '--data', '{"userId":"u9","traits":{"plan":"pro"}}', '--data-dir', dir, '--timeout', '3000'], again.io)).toBe(0);
    const core = createCore({ dataDir: dir, autoStart: false });
    try {
      const list = core.listMessages({});
      if (!list.ok) throw new Error(list.error.message);
      expect(list.value.items).toHaveLength(2);
      expect(list.value.items[1]).toMatchObject({ type: 'identify', userId: 'u9', status: 'delivered' });
      const detail = core.getMessage({ id: list.value.items[1]!.id });
      if (!detail.ok) throw new Error(detail.error.message);
      expect(Buffer.from(detail.value.message.body, 'utf8').equals(rx.captured[0]!.body)).toBe(true);
      const listed = core.listDestinations({ owner: 'send' });
      if (!listed.ok) throw new Error(listed.error.message);
      const dests = listed.value.items;
      expect(dests).toHaveLength(1);
      // The second send's settings, in full: its --timeout, and no --max-attempts left from the first.
      expect(dests[0]).toMatchObject({ name: 'hookbench send', enabled: false, sourceIds: [], timeoutMs: 3000, webhooks: [{ url: rx.url, headers: {} }] });
      expect(dests[0]!.retry.maxAttempts).toBeUndefined();
      // It is the CLI's own: the user's list (Destinations, Compose, History's filter) does not show it.
      expect(core.listDestinations()).toEqual({ ok: true, value: { items: [], nextCursor: null } });
    } finally {
      await core.close();
    }
  });

  it('--help and --version exit 0 on the program and on each subcommand', async () => {
    for (const argv of [['--version'], ['send', '--version'], ['verify', '-V']]) {
      const c = capture();
      expect(await runCli(argv, c.io)).toBe(0);
      expect(c.out()).toBe(`${VERSION}\n`);
    }
    for (const [argv, usage] of [
      [['--help'], 'Usage: hookbench'],
      [['send', '--help'], 'Usage: hookbench send [options] <type>'],
      [['verify', '--help'], 'Usage: hookbench verify [options]'],
    ] as const) {
      const c = capture();
      expect(await runCli(argv, c.io)).toBe(0);
      expect(c.out()).toContain(usage);
    }
    // Every command that takes a data dir spells it --data-dir; serve's and delete-user's --data is a hidden alias.
    for (const command of ['send', 'receive', 'serve', 'delete-user']) {
      const c = capture();
      expect(await runCli([command, '--help'], c.io)).toBe(0);
      expect(c.out(), command).toContain('--data-dir <dir>');
      expect(c.out(), command).not.toMatch(/^\s+--data <dir>/m);
    }
    // A CI job reads what each exit status means in every command's help.
    for (const command of ['send', 'verify', 'serve', 'delete-user', 'tail', 'show', 'export', 'import', 'info', 'check', 'doctor', 'receive']) {
      const c = capture();
      expect(await runCli([command, '--help'], c.io)).toBe(0);
      expect(c.out(), command).toMatch(/^Exit status: 0 /m);
    }
    const none = capture();
    expect(await runCli([], none.io)).toBe(2); // no command: help on stderr, a usage error
    expect(none.err()).toContain('Usage: hookbench');
  });
});

describe('hookbench verify (in-process)', () => {
  async function sentBody(): Promise<{ body: Buffer; signature: string }> {
    const rx = await receiver();
    const c = capture();
    expect(await runCli(['send', 'track', '--to', rx.url, '--secret', 'k3y', '--data', TRACK, '--fast'], c.io, { send: { tmpRoot: tmpRoot() } })).toBe(0);
    const req = rx.captured[0]!;
    return { body: req.body, signature: String(req.headers['x-signature']) };
  }

  it('the exact bytes Hookbench sent, from a file or stdin: "signature matches", exit 0', async () => {
    const { body, signature } = await sentBody();
    const file = join(tmpRoot(), 'body.json');
    writeFileSync(file, body);
    const fromFile = capture();
    expect(await runVerify(['--body', `@${file}`], fromFile)).toBe(0);
    expect(fromFile.out()).toMatch(/^signature matches/);
    const fromStdin = capture(body.toString('utf8'));
    expect(await runVerify([], fromStdin)).toBe(0);
    expect(fromStdin.out()).toMatch(/^signature matches/);

    function runVerify(extra: string[], c: Captured) {
      return runCli(['verify', '--secret', 'k3y', '--signature', signature, ...extra], c.io);
    }
  });

  it('a signature your server computed in upper-case hex: exit 1, naming it (a case-sensitive comparison with the lowercase header fails)', async () => {
    const { body, signature } = await sentBody();
    const c = capture();
    expect(await runCli(['verify', '--secret', 'k3y', '--signature', signature.toUpperCase(), '--body', body.toString('utf8')], c.io)).toBe(1);
    expect(c.out()).toContain('diagnosis: matches the digest as upper-case hex: X-Signature is lowercase hex; compare the two case-insensitively (or lower-case them)');
  });

  it('an empty body is a usage error, not a diagnosis of the secret', async () => {
    const { signature } = await sentBody();
    const c = capture('');
    expect(await runCli(['verify', '--secret', 'k3y', '--signature', signature], c.io)).toBe(2);
    expect(c.err()).toContain('the body on stdin is empty (0 bytes): give the exact bytes your receiver got (--body @file, or on stdin)');
  });

  it('the body as a framework re-encoded it: exit 1 with the re-serialisation diagnosis', async () => {
    const { body, signature } = await sentBody();
    const reencoded = JSON.stringify(JSON.parse(body.toString('utf8')), null, 1).replace(/\n */g, ' ');
    const c = capture();
    expect(await runCli(['verify', '--secret', 'k3y', '--signature', signature, '--body', reencoded], c.io)).toBe(1);
    expect(c.out()).toContain('signature does not match');
    expect(c.out()).toContain(`expected:  ${hmacHex('k3y', Buffer.from(reencoded, 'utf8'))}`);
    expect(c.out()).toContain('diagnosis: matches the body re-serialised: your framework parsed and re-encoded the JSON; verify the raw bytes');
  });

  it('a wrong secret: exit 1, "check the shared secret"; usage errors exit 2', async () => {
    const { body, signature } = await sentBody();
    const c = capture();
    expect(await runCli(['verify', '--secret', 'nope', '--signature', signature, '--body', body.toString('utf8')], c.io)).toBe(1);
    expect(c.out()).toContain('diagnosis: no known mistake explains it: check the shared secret');

    const missing = capture();
    expect(await runCli(['verify', '--signature', signature, '--body', 'x'], missing.io)).toBe(2);
    expect(missing.err()).toContain("required option '--secret <secret>' not specified");
    const noFile = capture();
    expect(await runCli(['verify', '--secret', 's', '--signature', signature, '--body', '@/no/such/file'], noFile.io)).toBe(2);
    expect(noFile.err()).toContain('--body: /no/such/file does not exist');
    // An empty secret is a variable left unset, said so, not a diagnosis of the receiver.
    const empty = capture();
    expect(await runCli(['verify', '--secret', '', '--signature', signature, '--body', 'x'], empty.io)).toBe(2);
    expect(empty.err()).toContain('--secret is empty (is the variable you gave it set?)');
  });
});

describe('the built CLI (node dist/main/cli.js)', () => {
  const CLI = join(ROOT, 'dist', 'main', 'cli.js');
  // npm test builds nothing first: this builds dist/ itself, and a failed build fails these tests.
  beforeAll(async () => {
    await promisify(execFile)('npm', ['run', 'build:main'], { cwd: ROOT, timeout: 120_000 });
    expect(existsSync(CLI)).toBe(true);
  }, 150_000);

  /** Spawned asynchronously: the test receiver runs in this process and must keep answering. */
  function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
  }

  it('--version, --help and usage errors give the documented exit codes', async () => {
    expect(await cli(['--version'])).toMatchObject({ code: 0, stdout: `${VERSION}\n` });
    expect(await cli(['verify', '--version'])).toMatchObject({ code: 0, stdout: `${VERSION}\n` });
    const help = await cli(['send', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--max-attempts <n>');
    const bad = await cli(['send', 'nope', '--to', 'http://127.0.0.1:9/h']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("'nope' is invalid for argument 'type'");
  });

  it('send | head -1: the reader gone stops the send as Ctrl-C does, so its throw-away data dir is removed', async () => {
    const rx = await receiver(status(503));
    const root = tmpRoot();
    const child = spawn(process.execPath, [CLI, 'send', 'track', '--to', rx.url, '--data', TRACK], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, TMPDIR: root },
    });
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    // The first line is out once the message is stored; the reader then goes, as `head -1` does.
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    child.stdout.destroy();
    expect(await closed).toBe(1);
    expect(readdirSync(root)).toEqual([]);
  });

  it('npm pack ships the client library (hookbench/client) with its type declarations', async () => {
    const { stdout } = await promisify(execFile)('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, timeout: 60_000 });
    const files = (JSON.parse(stdout) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
    type Entry = string | { types?: string; import?: string; default?: string };
    const entry = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, Entry> }).exports['./client']!;
    const target = (typeof entry === 'string' ? entry : (entry.import ?? entry.default)!).replace(/^\.\//, '');
    expect(files).toContain(target);
    expect(files).toContain(target.replace(/\.js$/, '.d.ts'));
  });

  it('send delivers (exit 0) and a 404 fails permanently (exit 1)', async () => {
    const ok = await receiver(status(200));
    const sent = await cli(['send', 'track', '--to', ok.url, '--secret', 's', '--data', TRACK]);
    expect(sent.stderr).toBe('');
    expect(sent.code).toBe(0);
    expect(sent.stdout).toContain(`success  HTTP 200`);
    expect(sent.stdout).toContain(`signature ${hmacHex('s', ok.captured[0]!.body)}`);
    const gone = await receiver(status(404));
    const failed = await cli(['send', 'page', '--to', gone.url, '--data', '{"userId":"u1"}']);
    expect(failed.code).toBe(1);
    expect(failed.stdout.trimEnd().split('\n').at(-1)).toBe('failed: permanent: HTTP 404 after 1 attempt');
  });

  it('serve relaunches itself in place with its memory settings, prints the ready line, writes server.json, refuses a second serve on the same data dir, and stops cleanly on SIGTERM', async () => {
    const data = tmpRoot();
    const child = spawn(process.execPath, [CLI, 'serve', '--data-dir', data, '--port', '0', '--receiver-port', '0', '--receiver-tls-port', '0'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    cleanups.push(() => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });
    let stdout = '';
    const ready = new Promise<string>((resolve) => {
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString('utf8');
        const line = /^Hookbench ready: (\S+)$/m.exec(stdout);
        if (line) resolve(line[1]!);
      });
    });
    const uiUrl = await ready;
    const info = JSON.parse(readFileSync(join(data, 'server.json'), 'utf8')) as { uiUrl: string; pid: number; token: string };
    expect(info).toMatchObject({ uiUrl, pid: child.pid });
    if (process.platform === 'linux') {
      // It started itself again in the same process, with serve's memory settings (cli/relaunch.ts).
      const args = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0');
      const env = readFileSync(`/proc/${child.pid}/environ`, 'utf8').split('\0');
      expect(args.slice(1, 1 + SERVE_V8_FLAGS.length)).toEqual(SERVE_V8_FLAGS);
      expect(env).toContain(`MALLOC_ARENA_MAX=${SERVE_MALLOC_ARENA_MAX}`);
    }
    expect(await cli(['info', 'token', '--data-dir', data])).toMatchObject({ code: 0, stdout: `${info.token}\n` });

    // send --data-dir of a running serve goes through it (another process) instead of failing on its lock.
    const rx = await receiver(status(200));
    const sent = await cli(['send', 'track', '--to', rx.url, '--data', TRACK, '--data-dir', data]);
    expect(sent.stderr).toBe('');
    expect(sent.code).toBe(0);
    expect(sent.stdout).toContain(`through hookbench serve at `);
    expect(sent.stdout).toContain(`(pid ${child.pid}), destination "hookbench send"`);
    expect(sent.stdout.trimEnd().split('\n').at(-1)).toBe('delivered after 1 attempt');
    const shown = await cli(['show', '1', '--body', '--data-dir', data]);
    expect(Buffer.from(shown.stdout, 'utf8').equals(rx.captured[0]!.body)).toBe(true);

    // --data is the older spelling of --data-dir: the same data dir, so refused.
    const second = await cli(['serve', '--data', data, '--port', '0', '--receiver-port', '0', '--receiver-tls-port', '0']);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`in use by another Hookbench process (pid ${child.pid})`);

    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(existsSync(join(data, 'server.json'))).toBe(false);
  });
});
