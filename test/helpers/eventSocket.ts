/** A WebSocket on a running server's event stream, as the UI and `hookbench tail` open it. */
import WebSocket from 'ws';
import { onCleanup } from './harness.js';

/** Opens `/api/events` of the server at `url` with `token`; resolves once open, rejects on an error before. Ended with the test. */
export function openEventSocket(url: string, token: string): Promise<WebSocket> {
  const ws = new WebSocket(`${url.replace('http', 'ws')}/api/events?token=${token}`);
  onCleanup(() => ws.terminate());
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}
