/** Start-up problems are one line naming the flag and what to do. */
import { once } from 'node:events';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runServe } from '../../main/cli/commands/serve.js';
import { captureIO } from '../helpers/cliIO.js';
import { newDataDir, onCleanup } from '../helpers/harness.js';

describe('hookbench serve at start', () => {
  it('the main port in use: one line naming --port and suggesting --port 0, exit 1', async () => {
    const taken = createServer();
    taken.listen(0, '127.0.0.1');
    await once(taken, 'listening');
    onCleanup(() => new Promise<void>((resolve) => taken.close(() => resolve())));
    const port = (taken.address() as { port: number }).port;
    const io = captureIO();
    const code = await runServe({ data: join(newDataDir(), 'data'), host: '127.0.0.1', port, receiverPort: 0, receiverTlsPort: 0 }, io.io);
    expect(code).toBe(1);
    expect(io.err()).toBe(`hookbench serve: --port: 127.0.0.1:${port} is already in use (another Hookbench? see its server.json); choose another port, or --port 0 for a free one\n`);
  });
});

describe('clients that close mid-body', () => {
  it('twenty aborts write one line to the log, no stack trace, and every other request still answers', async () => {
    const { vi } = await import('vitest');
    const { startServe } = await import('../../main/cli/commands/serve.js');
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
