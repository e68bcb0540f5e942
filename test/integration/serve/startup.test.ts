/** Start-up problems are one line naming the flag and what to do. */
import { once } from 'node:events';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runServe, type ServerInfo } from '../../../main/cli/commands/serve.js';
import { runCli } from '../../../main/cli/program.js';
import { DEFAULT_RECEIVER_PORT, DEFAULT_RECEIVER_TLS_PORT } from '../../../main/contract/receiver/receiver.js';
import { captureIO } from '../../helpers/cliIO.js';
import { startCommand } from '../../helpers/cliRun.js';
import { newDataDir, onCleanup } from '../../helpers/harness.js';

/** A net server on host:port (0: a free one) until the test ends; resolves to its port. */
async function occupy(port = 0): Promise<number> {
  const taken = createServer();
  taken.listen(port, '127.0.0.1');
  await once(taken, 'listening');
  onCleanup(() => new Promise<void>((resolve) => taken.close(() => resolve())));
  return (taken.address() as { port: number }).port;
}

/** Holds a fixed port; when something else holds it already, it is taken all the same. */
async function holdTaken(port: number): Promise<void> {
  try {
    await occupy(port);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw e;
  }
}

describe('hookbench serve at start', () => {
  it('the main port in use: names --port and suggests --port 0, exit 1', async () => {
    const port = await occupy();
    const io = captureIO();
    const code = await runServe({ data: join(newDataDir(), 'data'), host: '127.0.0.1', port, receiverPort: 0, receiverTlsPort: 0 }, io.io, {});
    expect(code).toBe(1);
    expect(io.err()).toBe(
      `hookbench serve: port ${port} is already in use on 127.0.0.1 (another Hookbench or another program listens there):\n` +
        `  ${`--port ${port}`.padEnd(26)} the API and UI\n` +
        'Move it with its flag, 0 for a free port: npx hookbench serve --port 0\n',
    );
  });

  it('a serve refused (a port in use, a bad config) leaves behind no data dir it made, and never removes one that was there', async () => {
    const port = await occupy();
    const fresh = join(newDataDir(), 'data');
    expect(await runServe({ data: fresh, host: '127.0.0.1', port, receiverPort: 0, receiverTlsPort: 0 }, captureIO().io, {})).toBe(1);
    expect(existsSync(fresh)).toBe(false);
    const config = join(newDataDir(), 'bad.json');
    writeFileSync(config, JSON.stringify({ destinations: [{ name: 'd', webhooks: [{ url: 'ftp://nowhere' }] }] }));
    expect(await runServe({ data: fresh, config, host: '127.0.0.1', port: 0, receiverPort: 0, receiverTlsPort: 0 }, captureIO().io, {})).toBe(2);
    expect(existsSync(fresh)).toBe(false);
    // Folders made for a nested path go with it; an empty folder given is emptied again, with its mode.
    const root = newDataDir();
    expect(await runServe({ data: join(root, 'a', 'b', 'deep'), host: '127.0.0.1', port, receiverPort: 0, receiverTlsPort: 0 }, captureIO().io, {})).toBe(1);
    expect(readdirSync(root)).toEqual([]);
    const empty = join(root, 'empty');
    mkdirSync(empty, { mode: 0o755 });
    chmodSync(empty, 0o755);
    expect(await runServe({ data: empty, host: '127.0.0.1', port, receiverPort: 0, receiverTlsPort: 0 }, captureIO().io, {})).toBe(1);
    expect(readdirSync(empty)).toEqual([]);
    expect(statSync(empty).mode & 0o777).toBe(0o755);
    // A data dir in use before stays, whatever went wrong.
    const kept = newDataDir();
    writeFileSync(join(kept, 'notes.txt'), 'mine');
    expect(await runServe({ data: kept, host: '127.0.0.1', port, receiverPort: 0, receiverTlsPort: 0 }, captureIO().io, {})).toBe(1);
    expect(readFileSync(join(kept, 'notes.txt'), 'utf8')).toBe('mine');
  });

  it('every port in use is named in one error, each with the flag that moves it, exit 1', async () => {
    const [api, http, https] = [await occupy(), await occupy(), await occupy()];
    const dataDir = join(newDataDir(), 'data');
    const c = captureIO();
    const argv = ['serve', '--data-dir', dataDir, '--port', String(api), '--receiver-port', String(http), '--receiver-tls-port', String(https)];
    expect(await runCli(argv, c.io)).toBe(1);
    expect(c.err()).toBe(
      [
        'hookbench serve: 3 ports are already in use on 127.0.0.1 (another Hookbench or another program listens there):',
        `  ${`--port ${api}`.padEnd(26)} the API and UI`,
        `  ${`--receiver-port ${http}`.padEnd(26)} the mock receiver (HTTP)`,
        `  ${`--receiver-tls-port ${https}`.padEnd(26)} the mock receiver (HTTPS)`,
        'Move each with its flag, 0 for a free port: npx hookbench serve --port 0 --receiver-port 0 --receiver-tls-port 0',
        '',
      ].join('\n'),
    );
    expect(c.out()).toBe('');
    // Refused before it listened: no server.json for other commands to find.
    expect(existsSync(join(dataDir, 'server.json'))).toBe(false);
  });

  it('run by npm start, the way out is said as npm passes flags: after --', async () => {
    const http = await occupy();
    const io = captureIO();
    const code = await runServe({ data: join(newDataDir(), 'data'), host: '127.0.0.1', port: 0, receiverPort: http, receiverTlsPort: 0 }, io.io, { npm_lifecycle_event: 'start' });
    expect(code).toBe(1);
    expect(io.err()).toContain(`  ${`--receiver-port ${http}`.padEnd(26)} the mock receiver (HTTP)\n`);
    expect(io.err()).toContain('Move it with its flag, 0 for a free port: npm start -- --receiver-port 0\n');
  });

  it('one free port named for two listeners is a usage error naming both flags, exit 2', async () => {
    const probe = createServer().listen(0, '127.0.0.1');
    await once(probe, 'listening');
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const c = captureIO();
    expect(await runCli(['serve', '--data-dir', join(newDataDir(), 'data'), '--port', String(port), '--receiver-port', String(port), '--receiver-tls-port', '0'], c.io)).toBe(2);
    expect(c.err()).toBe(`hookbench serve: --port and --receiver-port both name port ${port}: give each its own, or 0 for a free one\n`);
  });

  it('--port 0 takes free receiver ports too while the default ones are taken; named receiver ports are kept', async () => {
    await holdTaken(DEFAULT_RECEIVER_PORT);
    await holdTaken(DEFAULT_RECEIVER_TLS_PORT);
    const dataDir = join(newDataDir(), 'data');
    const { c, run } = startCommand(['serve', '--data-dir', dataDir, '--port', '0'], {});
    await c.waitForErr('stop with Ctrl-C');
    const info = JSON.parse(readFileSync(join(dataDir, 'server.json'), 'utf8')) as ServerInfo;
    const portOf = (url: string | null) => Number(new URL(url!).port);
    expect(portOf(info.receiverUrl)).not.toBe(DEFAULT_RECEIVER_PORT);
    expect(portOf(info.receiverTlsUrl)).not.toBe(DEFAULT_RECEIVER_TLS_PORT);
    expect((await fetch(`${info.url}/healthz`)).status).toBe(200);
    c.abort();
    expect(await run).toBe(0);

    // A receiver port the user names is theirs: --port 0 does not move it (here: taken, so refused).
    const named = captureIO();
    expect(await runCli(['serve', '--data-dir', dataDir, '--port', '0', '--receiver-port', String(DEFAULT_RECEIVER_PORT)], named.io)).toBe(1);
    expect(named.err()).toContain(`  ${`--receiver-port ${DEFAULT_RECEIVER_PORT}`.padEnd(26)} the mock receiver (HTTP)\n`);
    expect(named.err()).not.toContain('--receiver-tls-port');
  });
});

describe('clients that close mid-body', () => {
  it('twenty aborts write one line to the log, no stack trace, and every other request still answers', async () => {
    const { vi } = await import('vitest');
    const { startServe } = await import('../../../main/cli/commands/serve.js');
    const { connect } = await import('node:net');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    onCleanup(() => {
      warn.mockRestore();
      error.mockRestore();
    });
    const running = await startServe({ data: join(newDataDir(), 'data'), host: '127.0.0.1', port: 0, receiverPort: 0, receiverTlsPort: 0 }, { stdout: () => undefined, stderr: () => undefined });
    onCleanup(() => running.stop());
    for (let i = 0; i < 20; i++) {
      const socket = connect(running.server.port, '127.0.0.1');
      await once(socket, 'connect');
      // Expect: 100-continue: the server's "100 Continue" says the request has reached the handler, so closing
      // after it leaves a body half sent (not a request never seen).
      socket.write('POST /v1/batch HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\nExpect: 100-continue\r\n\r\n');
      await once(socket, 'data');
      socket.write('{"batch":[');
      socket.destroy();
    }
    await vi.waitFor(() => expect(running.server.clientAborts).toBe(20), { timeout: 20_000 });
    expect(warn.mock.calls.map((c) => String(c[0]))).toEqual(['hookbench: a client closed its connection before sending the whole request (counted from now on, one line a minute at most)']);
    expect(error).not.toHaveBeenCalled();
    expect((await fetch(`${running.info.url}/healthz`)).status).toBe(200);
  });
});
