import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../../main/app/createCore.js';
import { startReceiver, status, type TestReceiver } from '../../helpers/receiver.js';
import { tempDir } from '../../helpers/tempDir.js';
import { must } from '../../helpers/harness.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(respond = status(200)): Promise<{ core: Core; rx: TestReceiver }> {
  const { dir, cleanup } = tempDir();
  const rx = await startReceiver(respond);
  const core = createCore({ dataDir: dir, seed: 1 });
  cleanups.push(cleanup, () => rx.close(), () => core.close());
  return { core, rx };
}

describe('delivery', () => {
  it('POSTs the exact stored bytes, signed with HMAC-SHA1 of those bytes', async () => {
    const { core, rx } = await setup();
    const dest = core.createDestination({ name: 'd', enabled: true, sharedSecret: 's3cret', webhooks: [{ url: rx.url, headers: { 'X-Env': 'dev' } }] });
    expect(dest.ok).toBe(true);
    const sent = core.sendMessage({ type: 'track', call: { userId: 'u1', event: 'Signed Up', properties: { plan: 'pro' } } });
    if (!sent.ok) throw new Error(sent.error.message);
    await rx.waitFor(1);
    await core.idle();
    const req = rx.captured[0]!;
    expect(req.method).toBe('POST');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['user-agent']).toBe('Hookbench/1.0');
    expect(req.headers['x-env']).toBe('dev');
    expect(req.headers['x-signature']).toBe(createHmac('sha1', 's3cret').update(req.body).digest('hex'));
    const detail = core.getMessage({ id: sent.value.message.id });
    if (!detail.ok) throw new Error(detail.error.message);
    expect(Buffer.from(detail.value.message.body, 'utf8').equals(req.body)).toBe(true);
    expect(detail.value.message.status).toBe('delivered');
    expect(detail.value.deliveries[0]!.status).toBe('delivered');
    expect(detail.value.attempts).toHaveLength(1);
    expect(detail.value.attempts[0]!.outcome).toBe('success');
  });

  it('a body beyond ASCII (accents, emoji, CJK, an escaped lone surrogate) is sent as the stored bytes, signed over them', async () => {
    const { core, rx } = await setup();
    must(core.createDestination({ name: 'd', enabled: true, sharedSecret: 's3cret', url: rx.url }));
    // JSON.stringify writes a lone surrogate as the escape `\ud800` (six ASCII characters), so the body stays valid UTF-8.
    const properties = { name: 'Crème brûlée 🍮', city: '東京', note: 'a\u2028b', lone: '\ud800' };
    const sent = must(core.sendMessage({ type: 'track', call: { userId: 'ü1', event: 'Ordered ✓', properties } }));
    await rx.waitFor(1);
    await core.idle();
    const req = rx.captured[0]!;
    const stored = Buffer.from(must(core.getMessage({ id: sent.message.id })).message.body, 'utf8');
    expect(req.body.equals(stored)).toBe(true);
    expect(req.headers['content-length']).toBe(String(stored.length));
    expect(req.headers['x-signature']).toBe(createHmac('sha1', 's3cret').update(stored).digest('hex'));
    expect(JSON.parse(req.body.toString('utf8')).properties).toEqual(properties);
  });
});
