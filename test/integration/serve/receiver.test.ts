import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../../main/contract/events.js';
import type { CaptureRecord } from '../../../main/contract/receiver/receiver.js';
import type { Page } from '../../../main/contract/messages.js';
import { startServe, type RunningServe } from '../../../main/cli/commands/serve.js';
import { must, newDataDir, onCleanup, settled } from '../../helpers/harness.js';

const silentIO = { stdout: () => undefined, stderr: () => undefined };

async function serveWith(config: unknown): Promise<RunningServe> {
  const dir = newDataDir();
  const file = join(dir, 'config.json');
  writeFileSync(file, JSON.stringify(config));
  const running = await startServe({ config: file, data: join(dir, 'data'), host: '127.0.0.1', port: 0, receiverPort: 0, receiverTlsPort: 0 }, silentIO);
  onCleanup(() => running.stop());
  return running;
}

describe('the mock receiver inside hookbench serve', () => {
  it('a config file declares a receiver and a destination pointing at receiver:<name>; 500,500,200 gives three attempts and delivered', async () => {
    const running = await serveWith({
      receivers: [{ name: 'flaky', secret: 's3cret', script: '500,500,200' }],
      destinations: [{ name: 'To flaky', enabled: true, sharedSecret: 's3cret', url: 'receiver:flaky' }],
    });
    expect(running.info.receiverUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(running.info.receiverTlsUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const captured: EngineEvent[] = [];
    running.core.onEvent((e) => e.type === 'requestCaptured' && captured.push(e));
    const sent = must(running.core.sendMessage({ type: 'track', call: { userId: 'u1', event: 'Paid' } }));
    await settled(running.core, sent.message.id);
    must(await running.core.advanceClock({ ms: 60 * 60_000 }));
    const detail = must(running.core.getMessage({ id: sent.message.id }));
    expect(detail.message.status).toBe('delivered');
    expect(detail.attempts.map((a) => a.statusCode)).toEqual([500, 500, 200]);
    expect(detail.attempts[0]!.url).toBe(`${running.info.receiverUrl}/r/flaky`);
    expect(captured).toHaveLength(3);

    const res = await request(`${running.info.url}/api/listCaptures`, {
      method: 'POST',
      headers: { authorization: `Bearer ${running.info.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ receiver: 'flaky' }),
    });
    const page = (await res.body.json()) as { ok: true; value: Page<CaptureRecord> };
    expect(page.value.items).toHaveLength(3);
    expect(page.value.items.every((c) => c.signature?.verdict === 'valid')).toBe(true);
  });

  it('the self-signed HTTPS listener: tls_error, no request captured', async () => {
    const running = await serveWith({
      receivers: [{ name: 'secure', script: 200 }],
      destinations: [{ name: 'To secure', enabled: true, url: 'receiver+tls:secure' }],
    });
    const sent = must(running.core.sendMessage({ type: 'track', call: { userId: 'u1', event: 'Paid' } }));
    const detail = await settled(running.core, sent.message.id);
    expect(detail.message).toMatchObject({ status: 'failed', statusReason: 'tls: self-signed certificate' });
    expect(must(running.core.receivers.listCaptures({})).items).toHaveLength(0);
  });

  it('a destination naming a receiver that does not exist is refused, naming the field', async () => {
    const running = await serveWith({});
    const r = running.core.createDestination({ name: 'd', url: 'receiver:ghost' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toBe('webhooks[0].url: no receiver named "ghost" (create it first, or declare it under "receivers")');
  });
});
