/**
 * `hookbench check` end to end in-process: human output and exit codes, --json's exact shape, --junit,
 * --list, --only, --scenarios, usage errors, an unreachable URL, and a run through a running serve (kept in
 * its history and compared with the previous run).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BATTERY } from '../../../main/check/battery.js';
import { runCli, type CliDeps } from '../../../main/cli/program.js';
import { startServe } from '../../../main/cli/commands/serve.js';
import type { CheckRun } from '../../../main/contract/check/check.js';
import { captureIO } from '../../helpers/cliIO.js';
import { checkReceiver, SECRET } from '../../helpers/checkReceivers.js';
import { newDataDir, newReceiver, onCleanup } from '../../helpers/harness.js';

/** A data dir no serve runs on (the run is standalone) and thresholds no busy machine reaches. */
const DEPS: CliDeps = { check: { timing: { timeoutMs: 10_000, slowMs: 5_000 } } };

async function check(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const c = captureIO();
  const code = await runCli(['check', ...args, ...(args.includes('--data-dir') ? [] : ['--data-dir', newDataDir()])], c.io, DEPS);
  return { code, out: c.out(), err: c.err() };
}

describe('hookbench check', () => {
  it('exit 0 with one ✓ line per check and the closing line when nothing fails', async () => {
    const r = await newReceiver(checkReceiver());
    const { code, out } = await check([r.url, '--secret', SECRET, '--burst', '5']);
    expect(code).toBe(0);
    const lines = out.trim().split('\n');
    expect(lines[0]).toBe(`Checking ${r.url}`);
    expect(lines.slice(1, -1)).toHaveLength(BATTERY.length - 1);
    expect(lines.slice(1, -1).every((l) => l.startsWith('✓ '))).toBe(true);
    expect(lines).toContain('✓ signature.tampered: a body changed after signing is refused with a 4xx');
    expect(lines.at(-1)).toBe(`${BATTERY.length - 1} passed, 0 failed, 0 warnings`);
  });

  it('prints each check as it finishes: a line is out while a later request still waits for its answer', async () => {
    const held: (() => void)[] = [];
    const good = checkReceiver();
    const r = await newReceiver((req, res) => {
      if ((JSON.parse(req.body.toString('utf8')) as { type: string }).type === 'screen') held.push(() => good(req, res));
      else good(req, res);
    });
    const c = captureIO();
    const run = runCli(['check', r.url, '--secret', SECRET, '--only', 'shapes.track,shapes.screen', '--data-dir', newDataDir()], c.io, DEPS);
    await c.waitForOut('✓ shapes.track: a track call gets a 2xx\n');
    await r.waitFor(2);
    expect(c.out()).not.toContain('shapes.screen');
    held.forEach((release) => release());
    expect(await run).toBe(0);
    expect(c.out()).toBe(`Checking ${r.url}\n✓ shapes.track: a track call gets a 2xx\n✓ shapes.screen: a screen call gets a 2xx\n2 passed, 0 failed, 0 warnings\n`);
  });

  it('exit 1 with ✗ lines, the evidence and the fix of each failure', async () => {
    const r = await newReceiver(checkReceiver({ acceptsAnySignature: true }));
    const { code, out } = await check([r.url, '--secret', SECRET, '--only', 'shapes.track,signature.wrong-secret']);
    expect(code).toBe(1);
    expect(out).toContain('✓ shapes.track: a track call gets a 2xx\n');
    expect(out).toContain('✗ signature.wrong-secret: a request signed with another secret is refused with a 4xx\n    signed with another secret: accepted with HTTP 200; forged requests get in\n');
    expect(out).toMatch(/ {4}forged: signed with another secret: POST http:\/\/127\.0\.0\.1:\d+\/hook → HTTP 200 in \d+ ms\n {6}X-Signature [0-9a-f]{40}: /);
    expect(out).toContain('    fix: Compute HMAC-SHA1 of the raw request body bytes');
    expect(out.trim().split('\n').at(-1)).toBe('1 passed, 1 failed, 0 warnings');
  });

  it('receiver:<name> with no workbench running on the data dir is a usage error saying one is needed', async () => {
    const { code, err } = await check(['receiver:orders', '--secret', SECRET]);
    expect(code).toBe(2);
    expect(err).toContain("url: receiver:orders names an endpoint of a running workbench's mock receiver, and none runs on this data dir: start hookbench serve");
  });

  it('warnings alone exit 0: no secret is "! warn signature.unverified"', async () => {
    const r = await newReceiver(checkReceiver({ acceptsAnySignature: true }));
    const { code, out } = await check([r.url, '--only', 'signature.unverified,shapes.track']);
    expect(code).toBe(0);
    expect(out).toContain('! warn signature.unverified: requests are signed and verified (it takes a shared secret: --secret)\n    no shared secret was given');
    expect(out.trim().split('\n').at(-1)).toBe('1 passed, 0 failed, 1 warning');
  });

  it('--json prints exactly {url, startedAt, finishedAt, summary, diagnosis, checks: [{id, title, area, verdict, detail, fix, evidence}]}', async () => {
    const r = await newReceiver(checkReceiver({ conflictOnDuplicate: true }));
    const { code, out } = await check([r.url, '--secret', SECRET, '--only', 'redelivery.same-message,status.valid-request', '--json']);
    expect(code).toBe(1);
    const report = JSON.parse(out) as Record<string, unknown> & { checks: Record<string, unknown>[] };
    expect(Object.keys(report)).toEqual(['url', 'startedAt', 'finishedAt', 'summary', 'diagnosis', 'checks', 'capacity']);
    expect(report).toMatchObject({ url: r.url, summary: { passed: 1, failed: 1, warnings: 0 }, diagnosis: null });
    expect(Date.parse(report['startedAt'] as string)).toBeLessThanOrEqual(Date.parse(report['finishedAt'] as string));
    expect(report.checks.map((c) => Object.keys(c))).toEqual([
      ['id', 'title', 'area', 'verdict', 'detail', 'fix', 'evidence'],
      ['id', 'title', 'area', 'verdict', 'detail', 'fix', 'evidence'],
    ]);
    expect(report.checks[0]).toMatchObject({ id: 'status.valid-request', verdict: 'pass', fix: null });
    expect(report.checks[1]).toMatchObject({ id: 'redelivery.same-message', area: 'redelivery', verdict: 'fail', fix: expect.stringMatching(/^De-duplicate by messageId/), evidence: [{ statusCode: 200 }, { statusCode: 409 }] });
  });

  it('--json carries the diagnosis: {mistake, title, fix}', async () => {
    const r = await newReceiver(checkReceiver({ signatureMistake: 'base64' }));
    const { code, out } = await check([r.url, '--secret', SECRET, '--only', 'status.valid-request,shapes.track', '--json']);
    expect(code).toBe(1);
    const report = JSON.parse(out) as { diagnosis: Record<string, unknown>; checks: { detail: string; fix: string | null }[] };
    expect(Object.keys(report.diagnosis)).toEqual(['mistake', 'title', 'fix']);
    expect(report.diagnosis).toMatchObject({ mistake: 'base64', title: 'The receiver rejects valid signatures: it compares the digest as base64, not lowercase hex' });
    expect(report.checks.map((c) => [c.detail, c.fix])).toEqual([
      ['refused (HTTP 401): the receiver rejects valid signatures, see the diagnosis', null],
      ['refused (HTTP 401): the receiver rejects valid signatures, see the diagnosis', null],
    ]);
  });

  it('the human report puts the diagnosis first, above the checks, with the probe the receiver accepted', async () => {
    const r = await newReceiver(checkReceiver({ signatureMistake: 'sha256' }));
    const { code, out } = await check([r.url, '--secret', SECRET, '--burst', '3']);
    expect(code).toBe(1);
    const lines = out.split('\n');
    expect(lines[0]).toBe(`Checking ${r.url}`);
    expect(lines[1]).toBe('Diagnosis (sha256): The receiver rejects valid signatures: it computes HMAC-SHA256, not HMAC-SHA1');
    expect(lines[2]).toMatch(/^ {4}probe: HMAC-SHA256 \(hex\): POST http:\/\/127\.0\.0\.1:\d+\/hook → HTTP 200 in \d+ ms$/);
    expect(out.indexOf('Diagnosis')).toBeLessThan(out.indexOf('✗ status.valid-request'));
    expect(out).toContain('✗ shapes.track: a track call gets a 2xx\n    refused (HTTP 401): the receiver rejects valid signatures, see the diagnosis\n✗');
    expect(out).toContain('✓ signature.wrong-secret');
    expect(out.match(/^Diagnosis/gm)).toHaveLength(1);
  });

  it('without --secret, a receiver that verifies signatures gets the no-secret diagnosis first, and the checks it refused point at it', async () => {
    const r = await newReceiver(checkReceiver());
    const { code, out } = await check([r.url, '--only', 'status.valid-request,shapes.track,signature.unverified']);
    expect(code).toBe(1);
    const lines = out.split('\n');
    expect(lines[1]).toBe('Diagnosis (no-secret): The receiver refuses unsigned requests (HTTP 401): it verifies X-Signature, and this run had no shared secret to sign with');
    expect(lines[2]).toMatch(/^ {4}fix: Run the check again with the destination's shared secret \(the one the receiver verifies with; --secret in the CLI\)/);
    expect(out).toContain('✗ shapes.track: a track call gets a 2xx\n    refused (HTTP 401): the receiver refuses unsigned requests and this run had no shared secret, see the diagnosis\n');
    expect(out).not.toContain('a valid request refused');
  });

  it('an empty --secret (a variable left unset) exits 2 and says so, in the words of the CLI', async () => {
    const { code, err } = await check(['http://127.0.0.1:9/hook', '--secret', '']);
    expect(code).toBe(2);
    expect(err).toContain('--secret is empty (is the variable you gave it set?): give the shared secret, or leave --secret out to send unsigned requests');
  });

  it('a URL without its scheme exits 2, suggesting it with http:// on this machine and https:// elsewhere', async () => {
    const local = await check(['localhost:3000/x']);
    expect(local.code).toBe(2);
    expect(local.err).toBe('hookbench check: <url>: "localhost:3000/x" has no scheme (http:// or https://): did you mean http://localhost:3000/x?\n');
    const remote = await check(['hooks.example.com/in']);
    expect(remote.err).toContain('did you mean https://hooks.example.com/in?');
  });

  it('--junit writes one testcase per check: a failure for a fail, system-out for a warn', async () => {
    const r = await newReceiver(checkReceiver({ acceptsAnySignature: true }));
    const file = join(newDataDir(), 'check.xml');
    const { code } = await check([r.url, '--secret', SECRET, '--only', 'shapes.track,signature.missing', '--junit', file]);
    expect(code).toBe(1);
    const xml = readFileSync(file, 'utf8');
    expect(xml.match(/<testcase /g)).toHaveLength(2);
    expect(xml).toContain('<failure message="no X-Signature: accepted with HTTP 200; forged requests get in" type="signature.missing">');
    expect(xml).toMatch(/<testsuite name="hookbench check http:\/\/127\.0\.0\.1:\d+\/hook" tests="2" failures="1" errors="0"/);
  });

  it('a --junit path that cannot be written is refused before the run: no request reaches the receiver', async () => {
    const r = await newReceiver(checkReceiver());
    const dir = newDataDir();
    const missing = await check([r.url, '--secret', SECRET, '--junit', join(dir, 'no-such-folder', 'check.xml')]);
    expect(missing.code).toBe(2);
    expect(missing.err).toBe(`hookbench check: --junit: ${join(dir, 'no-such-folder', 'check.xml')} cannot be written (ENOENT: its folder does not exist); nothing was checked\n`);
    const folder = await check([r.url, '--secret', SECRET, '--junit', dir]);
    expect(folder.code).toBe(2);
    expect(folder.err).toContain(`--junit: ${dir} is a directory, not a regular file`);
    expect(missing.out + folder.out).toBe('');
    expect(r.captured).toHaveLength(0);
  });

  it('--list prints every check ID with its area and title, and the scenarios file\'s', async () => {
    const file = join(newDataDir(), 'scenarios.json');
    writeFileSync(file, JSON.stringify({ scenarios: [{ id: 'acme.order-created', title: 'Order Created is accepted', message: { type: 'track', call: { userId: 'u', event: 'Order Created' } } }] }));
    const { code, out } = await check(['--list', '--scenarios', file]);
    expect(code).toBe(0);
    const ids = out.trim().split('\n').map((l) => l.split(/\s+/)[0]);
    expect(ids).toEqual([...BATTERY.map((c) => c.id), 'acme.order-created', 'capacity.sustained-rate']);
    expect(out).toMatch(/^signature\.wrong-secret\s+signature\s+a request signed with another secret is refused with a 4xx$/m);
  });

  it('--scenarios runs the user\'s cases with their expectations after the battery', async () => {
    const r = await newReceiver(checkReceiver({ status: 201, headers: { 'x-request-id': 'req-42' }, body: '{"received":true}' }));
    const file = join(newDataDir(), 'scenarios.json');
    writeFileSync(
      file,
      JSON.stringify({
        scenarios: [
          { id: 'acme.created', title: 'answers 201 with a request id', area: 'status', message: { type: 'track', call: { userId: 'u', event: 'Order Created' } }, expect: { status: 201, header: { name: 'X-Request-Id', contains: 'req-' }, bodyContains: 'received' } },
          { id: 'acme.raw-body', title: 'a raw body signed wrong is refused', body: '{"type":"track"}', sign: 'wrong-secret', expect: { status: '4xx' } },
          { id: 'acme.accepted', title: 'answers 202', message: { type: 'track', call: { userId: 'u', event: 'E' } }, expect: { status: 202 } },
          { id: 'acme.fast', title: 'answers within 60 s', message: { type: 'identify', call: { userId: 'u' } }, expect: { status: '2xx', maxLatencyMs: 60000 } },
        ],
      }),
    );
    const { code, out } = await check([r.url, '--secret', SECRET, '--scenarios', file, '--only', 'acme.created,acme.raw-body,acme.accepted,acme.fast', '--json']);
    const report = JSON.parse(out) as { checks: { id: string; area: string; verdict: string; detail: string }[] };
    expect(report.checks.map((c) => [c.id, c.area, c.verdict])).toEqual([
      ['acme.created', 'status', 'pass'],
      ['acme.raw-body', 'custom', 'pass'],
      ['acme.accepted', 'custom', 'fail'],
      ['acme.fast', 'custom', 'pass'],
    ]);
    expect(report.checks[2]!.detail).toBe('answers 202: expected HTTP 202, got HTTP 201: {"received":true}');
    expect(code).toBe(1);
  });

  it.each([
    [['--only', 'shapes.nope'], 'hookbench check: only[0]: no check has the ID "shapes.nope" (hookbench check --list prints them) (--only)'],
    [['--header', 'Content-Type: text/plain'], '--header'],
    [['--header', 'no colon'], 'hookbench check: --header "no colon": expected "Name: value"'],
    [['--burst', '0'], "error: option '--burst <n>' argument '0' is invalid"],
    [['--burst', '501'], "option '--burst <n>' argument '501' is invalid. expected a whole number from 1 to 500"],
  ])('usage errors exit 2 naming the flag: %j', async (args, message) => {
    const { code, err } = await check(['http://127.0.0.1:9/hook', ...args]);
    expect(code).toBe(2);
    expect(err).toContain(message);
  });

  it('a scenarios file that is not JSON, or breaks the schema, exits 2 naming where', async () => {
    const dir = newDataDir();
    writeFileSync(join(dir, 'bad.json'), '{"scenarios": [\n  {"id": "a.b",}\n]}');
    const bad = await check(['http://127.0.0.1:9/hook', '--scenarios', join(dir, 'bad.json')]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--scenarios .*bad\.json: invalid JSON at line 2, column \d+ \(position \d+\): /);
    writeFileSync(join(dir, 'dup.json'), JSON.stringify({ scenarios: [{ id: 'a.b', title: 't', body: {} }, { id: 'a.b', title: 't', body: {} }] }));
    const dup = await check(['http://127.0.0.1:9/hook', '--scenarios', join(dir, 'dup.json')]);
    expect(dup.code).toBe(2);
    expect(dup.err).toContain('scenarios[1].id: "a.b" is already the ID of scenarios[0]');
  });

  it('an unreachable URL exits 2 and says so (not a check failure)', async () => {
    const r = await newReceiver();
    const url = r.url;
    await r.close();
    const { code, out, err } = await check([url, '--secret', SECRET]);
    expect(code).toBe(2);
    expect(err).toMatch(new RegExp(`^hookbench check: cannot reach ${url.replace(/[./]/g, '\\$&')}: ECONNREFUSED.*\\(nothing was checked\\)\\n$`));
    expect(out).toBe('');
    // With --json too: no report at all, which no script can take for a clean run.
    const json = await check([url, '--secret', SECRET, '--json']);
    expect([json.code, json.out]).toEqual([2, '']);
    expect(json.err).toContain('(nothing was checked)');
  });

  it('through a running serve: the run is kept in its history, and the next run says what was fixed', async () => {
    const dataDir = join(newDataDir(), 'data');
    const serve = await startServe({ dataDir, host: '127.0.0.1', port: 0, receiverPort: 0, receiverTlsPort: 0 }, { stdout: () => undefined, stderr: () => undefined });
    onCleanup(() => serve.stop());
    const r = await newReceiver(checkReceiver({ acceptsAnySignature: true }));
    const args = [r.url, '--secret', SECRET, '--only', 'signature.missing,shapes.track', '--data-dir', dataDir];
    expect((await check(args)).code).toBe(1);
    r.respond = checkReceiver();
    const second = await check(args);
    expect(second.code).toBe(0);
    expect(second.out).toContain('✓ signature.missing: a request without X-Signature is refused with a 4xx (fixed since last run)\n');
    const core = serve.core;
    const runs = core.checks.listCheckRuns({ url: r.url });
    expect(runs.ok && runs.value.items.map((run) => run.summary)).toEqual([
      { passed: 2, failed: 0, warnings: 0 },
      { passed: 1, failed: 1, warnings: 0 },
    ]);
    const latest = core.checks.getCheckRun({ id: runs.ok ? runs.value.items[0]!.id : 0 });
    expect((latest as { value: CheckRun }).value.fixedSinceLastRun).toEqual(['signature.missing']);
  });
});
