/**
 * The typed API over HTTP and its event stream over WebSocket answer alike (docs/behaviour.md
 * §10): 403 for a request not addressed to this machine (Host or Origin), 401 for a missing or wrong token.
 */
import { join } from 'node:path';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startServe, type RunningServe } from '../../../main/cli/commands/serve.js';
import { newDataDir, onCleanup } from '../../helpers/harness.js';

const silentIO = { stdout: () => undefined, stderr: () => undefined };

async function serve(): Promise<RunningServe> {
  const running = await startServe({ data: join(newDataDir(), 'data'), host: '127.0.0.1', port: 0, receiverPort: 0, receiverTlsPort: 0 }, silentIO);
  onCleanup(() => running.stop());
  return running;
}

/** The status a WebSocket upgrade is answered with (101 when it opens). */
function upgradeStatus(running: RunningServe, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${running.info.url.replace('http', 'ws')}${path}`, { headers });
    ws.once('open', () => {
      ws.close();
      resolve(101);
    });
    ws.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      res.resume();
      ws.terminate();
    });
    ws.once('error', (e) => reject(e));
  });
}

async function httpStatus(running: RunningServe, token: string, headers: Record<string, string>): Promise<number> {
  const res = await request(`${running.info.url}/api/getClock`, { method: 'POST', headers: { authorization: `Bearer ${token}`, ...headers }, body: '{}' });
  await res.body.dump();
  return res.statusCode;
}

describe('Host/Origin and token checks: HTTP and WebSocket alike', () => {
  it.each([
    ['this machine, the right token', {}, 'good', 200, 101],
    ['a foreign Origin, the right token', { origin: 'https://evil.example' }, 'good', 403, 403],
    ['an Origin that is not a URL', { origin: 'null' }, 'good', 403, 403],
    ['a foreign Host (DNS rebinding), the right token', { host: 'rebind.example' }, 'good', 403, 403],
    ['a foreign Origin and a wrong token', { origin: 'https://evil.example' }, 'wrong', 403, 403],
    ['this machine, a wrong token', {}, 'wrong', 401, 401],
  ])('%s: the same status over HTTP and WebSocket', async (_what, headers, tokenKind, http, websocket) => {
    const running = await serve();
    const token = tokenKind === 'good' ? running.info.token : 'wrong';
    expect(await httpStatus(running, token, headers)).toBe(http);
    expect(await upgradeStatus(running, `/api/events?token=${token}`, headers)).toBe(websocket);
  });

  it('a WebSocket to another path is 404', async () => {
    const running = await serve();
    expect(await upgradeStatus(running, `/api/other?token=${running.info.token}`, {})).toBe(404);
  });
});
