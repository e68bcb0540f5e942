/**
 * The endpoint check tells the truth when the receiver misbehaves below HTTP: against one that resets every
 * connection, answers bytes that are not HTTP, or sends 1 MB of headers, the time checks have nothing to
 * measure and say so (a warning, never a pass); a check that cannot run fails the run; a self-signed
 * certificate fails transport with the fix this tool has (--ca-file), and passes once it is trusted.
 */
import { writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../main/cli/program.js';
import type { CheckRun } from '../../../main/contract/check/check.js';
import { generateSelfSigned } from '../../../main/receiver/certificates.js';
import { captureIO } from '../../helpers/cliIO.js';
import { checkReceiver, SECRET } from '../../helpers/checkReceivers.js';
import { newCore, newDataDir, newReceiver, onCleanup } from '../../helpers/harness.js';

/** A TCP server that reads a request's first bytes, then does `fault` to the socket. */
async function rawReceiver(fault: (socket: Socket) => void): Promise<string> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.once('data', () => fault(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onCleanup(async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
}

const FAULTS: [string, (socket: Socket) => void][] = [
  ['resets every connection', (socket) => socket.resetAndDestroy()],
  ['answers bytes that are not HTTP', (socket) => socket.end('HELLO, this is not HTTP\r\n\r\n')],
  ['sends 1 MB of headers', (socket) => socket.end(`HTTP/1.1 200 OK\r\nX-Big: ${'a'.repeat(1024 * 1024)}\r\nContent-Length: 0\r\n\r\n`)],
];

const checkCore = () => newCore({ autoStart: false, forwarder: 'inline', checkTiming: { timeoutMs: 10_000, slowMs: 5_000 } });

async function runCheck(url: string, only: string[]): Promise<CheckRun> {
  const r = await checkCore().checks.runCheck({ url, secret: SECRET, only, wait: true });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

describe('a check with nothing to judge is not a pass', () => {
  it.each(FAULTS)('a receiver that %s: the requests fail, and the time checks warn that nothing arrived', async (_what, fault) => {
    const url = await rawReceiver(fault);
    const run = await runCheck(url, ['status.valid-request', 'shapes.track', 'time.latency', 'time.body-stall']);
    expect(run.status).toBe('finished');
    const verdicts = Object.fromEntries(run.checks.map((c) => [c.id, [c.verdict, c.detail]]));
    expect(verdicts['status.valid-request']![0]).toBe('fail');
    expect(verdicts['shapes.track']![0]).toBe('fail');
    for (const id of ['time.latency', 'time.body-stall']) {
      expect(verdicts[id], id).toEqual(['warn', expect.stringMatching(/^none of the 2 requests of this run got a response \(first: .+\), so there is nothing to measure/)]);
    }
  });

  it('a time check run alone (--only) warns that no request was sent', async () => {
    const r = await newReceiver(checkReceiver());
    const run = await runCheck(r.url, ['time.latency', 'time.body-stall']);
    expect(run.checks.map((c) => [c.id, c.verdict, c.detail])).toEqual([
      ['time.latency', 'warn', 'no request was sent in this run (add a check that sends, e.g. --only status.valid-request,time.latency), so there is nothing to measure'],
      ['time.body-stall', 'warn', 'no request was sent in this run (add a check that sends, e.g. --only status.valid-request,time.body-stall), so there is nothing to measure'],
    ]);
    expect(r.captured).toHaveLength(0);
  });

  it('with answers, they pass and say what they measured', async () => {
    const r = await newReceiver(checkReceiver());
    const run = await runCheck(r.url, ['status.valid-request', 'time.latency', 'time.body-stall']);
    expect(run.checks.map((c) => [c.id, c.verdict])).toEqual([
      ['status.valid-request', 'pass'],
      ['time.latency', 'pass'],
      ['time.body-stall', 'pass'],
    ]);
    expect(run.checks[2]!.detail).toBe('every response body arrived in full (1 response)');
  });
});

describe('a check that cannot run fails the run', () => {
  it('a scenario the runner cannot send is a failed check (exit 1), named, under --only too', async () => {
    const r = await newReceiver(checkReceiver());
    const file = join(newDataDir(), 'scenarios.json');
    writeFileSync(file, JSON.stringify({ scenarios: [{ id: 'acme.pretty', title: 'pretty-printed text', body: 'not json', sign: 'pretty-printed' }] }));
    const c = captureIO();
    const code = await runCli(['check', r.url, '--secret', SECRET, '--scenarios', file, '--only', 'acme.pretty', '--data-dir', newDataDir()], c.io);
    expect(code).toBe(1);
    expect(c.out()).toContain('✗ acme.pretty: pretty-printed text\n    pretty-printed text: sign "pretty-printed" re-serialises the body as JSON, and this body is not JSON');
    expect(c.out().trim().split('\n').at(-1)).toBe('0 passed, 1 failed, 0 warnings');
  });

  it('a run that ran no check exits 1 and says why: "0 passed, 0 failed" proves nothing', async () => {
    const r = await newReceiver(checkReceiver());
    const c = captureIO();
    // The forgeries need a secret: without one, --only naming one leaves the run empty.
    expect(await runCli(['check', r.url, '--only', 'signature.wrong-secret', '--data-dir', newDataDir()], c.io)).toBe(1);
    expect(c.out().trim().split('\n').at(-1)).toBe('0 passed, 0 failed, 0 warnings');
    expect(c.err()).toBe(
      'hookbench check: no check ran: --only names only checks that do not apply to this run (the signature forgeries and signature.raw-bytes need --secret; signature.unverified runs without one), so nothing was proven\n',
    );
  });

  it('a scenario that forges a signature without a secret is refused before anything is sent', async () => {
    const r = await newReceiver(checkReceiver());
    const file = join(newDataDir(), 'scenarios.json');
    writeFileSync(file, JSON.stringify({ scenarios: [{ id: 'acme.forged', title: 'forged', message: { type: 'track', call: { userId: 'u', event: 'E' } }, sign: 'wrong-secret' }] }));
    const c = captureIO();
    expect(await runCli(['check', r.url, '--scenarios', file, '--data-dir', newDataDir()], c.io)).toBe(2);
    expect(c.err()).toBe(
      'hookbench check: scenarios.scenarios[0].sign: "wrong-secret" forges a signature from the shared secret, and none was given: give the secret, or sign "none" for an unsigned request (--scenarios)\n',
    );
    expect(r.captured).toHaveLength(0);
  });
});

describe('TLS: the fix this tool has', () => {
  it('a self-signed certificate fails transport, saying --ca-file (not Node\'s flags); with --ca-file it passes', async () => {
    const tls = await generateSelfSigned();
    const r = await newReceiver(checkReceiver(), tls);
    const refused = captureIO();
    expect(await runCli(['check', r.url, '--secret', SECRET, '--json', '--data-dir', newDataDir()], refused.io)).toBe(1);
    const report = JSON.parse(refused.out()) as { checks: { id: string; verdict: string; detail: string; fix: string | null }[] };
    expect(report.checks.map((c) => [c.id, c.verdict])).toEqual([['transport.https', 'fail']]);
    const transport = report.checks[0]!;
    expect(transport.detail).toMatch(/^tls: self-signed certificate: self-signed certificate: the destination refuses it and sends nothing$/);
    expect(transport.detail).not.toContain('use-system-ca');
    expect(transport.fix).toContain('hookbench check --ca-file FILE');
    expect(transport.fix).toContain("the destination's caFile");

    const ca = join(newDataDir(), 'ca.pem');
    writeFileSync(ca, tls.cert);
    const trusted = captureIO();
    expect(await runCli(['check', r.url, '--secret', SECRET, '--ca-file', ca, '--only', 'status.valid-request,transport.https', '--data-dir', newDataDir()], trusted.io)).toBe(0);
    expect(trusted.out()).toContain(`✓ transport.https`);
    expect(trusted.out().trim().split('\n').at(-1)).toBe('2 passed, 0 failed, 0 warnings');
  });

  it('--ca-file that is not a PEM file is refused before anything is sent', async () => {
    const r = await newReceiver(checkReceiver());
    const ca = join(newDataDir(), 'ca.pem');
    writeFileSync(ca, 'not a certificate');
    const c = captureIO();
    expect(await runCli(['check', r.url, '--ca-file', ca, '--data-dir', newDataDir()], c.io)).toBe(2);
    expect(c.err()).toBe(`hookbench check: --ca-file: ${ca} holds no PEM certificate (-----BEGIN CERTIFICATE-----)\n`);
    expect(r.captured).toHaveLength(0);
  });
});
