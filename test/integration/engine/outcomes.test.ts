import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateSelfSigned } from '../../../main/receiver/certificates.js';
import { must, newCoreWithDestination, newDataDir, newReceiver, sendTrack, settled } from '../../helpers/harness.js';
import { never, status } from '../../helpers/receiver.js';

const fastRetry = { schedule: [1000], windowMs: 60_000, jitter: 0 };

describe('docs/behaviour.md §3 outcomes, one row each', () => {
  it('2xx: success, delivered', async () => {
    const rx = await newReceiver(status(204));
    const core = newCoreWithDestination({ url: rx.url });
    const detail = await settled(core, sendTrack(core, 'd'));
    expect(detail.message.status).toBe('delivered');
    expect(detail.attempts.map((a) => [a.outcome, a.statusCode])).toEqual([['success', 204]]);
  });

  it.each([500, 502, 503, 429])('%i: http_error, retried', async (code) => {
    const rx = await newReceiver(status(code, {}, 'busy'));
    const core = newCoreWithDestination({ url: rx.url, retry: fastRetry });
    const id = sendTrack(core, 'd');
    const first = await settled(core, id);
    expect(first.message.status).toBe('retrying');
    expect(first.attempts[0]).toMatchObject({ outcome: 'http_error', statusCode: code, retryable: true, responseBody: 'busy' });
    rx.respond = status(200);
    must(await core.advanceClock({ ms: 1000 }));
    const after = must(core.getMessage({ id }));
    expect(after.message.status).toBe('delivered');
    expect(rx.captured).toHaveLength(2);
  });

  it('connection refused: network_error, retried', async () => {
    const rx = await newReceiver();
    const url = rx.url;
    await rx.close();
    const core = newCoreWithDestination({ url, retry: fastRetry });
    const detail = await settled(core, sendTrack(core, 'd'));
    expect(detail.message.status).toBe('retrying');
    expect(detail.attempts[0]).toMatchObject({ outcome: 'network_error', retryable: true, statusCode: null });
    expect(detail.attempts[0]!.error).toMatch(/ECONNREFUSED/);
  });

  it('connection reset before any response: network_error, retried', async () => {
    const rx = await newReceiver((req, res) => res.socket?.destroy());
    const core = newCoreWithDestination({ url: rx.url, retry: fastRetry });
    const detail = await settled(core, sendTrack(core, 'd'));
    expect(detail.attempts[0]).toMatchObject({ outcome: 'network_error', retryable: true });
    expect(detail.deliveries[0]!.status).toBe('retrying');
  });

  it.each([301, 302, 307, 308])('%i: redirect never followed, permanent', async (code) => {
    const target = await newReceiver(status(200));
    const rx = await newReceiver(status(code, { location: target.url }));
    const core = newCoreWithDestination({ url: rx.url, retry: fastRetry });
    const detail = await settled(core, sendTrack(core, 'd'));
    expect(detail.message.status).toBe('failed');
    expect(detail.message.statusReason).toBe(`redirect not followed (${code})`);
    expect(detail.attempts[0]).toMatchObject({ outcome: 'http_error', retryable: false, statusCode: code });
    must(await core.advanceClock({ ms: 60_000 }));
    expect(target.captured).toHaveLength(0);
    expect(rx.captured).toHaveLength(1);
  });

  it.each([400, 401, 404, 410, 422])('%i: permanent, not retried', async (code) => {
    const rx = await newReceiver(status(code));
    const core = newCoreWithDestination({ url: rx.url, retry: fastRetry });
    const detail = await settled(core, sendTrack(core, 'd'));
    expect(detail.message.status).toBe('failed');
    expect(detail.deliveries[0]!.reason).toBe(`permanent: HTTP ${code}`);
    must(await core.advanceClock({ ms: 60_000 }));
    expect(rx.captured).toHaveLength(1);
  });

  it('self-signed HTTPS: tls_error, no request sent, never retried', async () => {
    const tls = await generateSelfSigned();
    let handlerRan = false;
    const rx = await newReceiver(() => {
      handlerRan = true;
    }, tls);
    const core = newCoreWithDestination({ url: rx.url, retry: fastRetry });
    const detail = await settled(core, sendTrack(core, 'd'));
    expect(detail.message.status).toBe('failed');
    expect(detail.deliveries[0]!.reason).toBe('tls: self-signed certificate');
    expect(detail.attempts[0]).toMatchObject({ outcome: 'tls_error', retryable: false, statusCode: null });
    must(await core.advanceClock({ ms: 60_000 }));
    expect(handlerRan).toBe(false);
    expect(rx.captured).toHaveLength(0);
  });

  it('a caFile naming the certificate makes the same HTTPS endpoint trusted (a deliberate choice)', async () => {
    const tls = await generateSelfSigned();
    const rx = await newReceiver(status(200), tls);
    const caFile = join(newDataDir(), 'root.pem');
    writeFileSync(caFile, tls.cert);
    const core = newCoreWithDestination({ url: rx.url, caFile });
    const detail = await settled(core, sendTrack(core, 'd'));
    expect(detail.message.status).toBe('delivered');
    expect(rx.captured).toHaveLength(1);
  });

  it('no response headers within 5 s (the default): timeout at >= 5.0 s and well before 7 s, then retried', async () => {
    const rx = await newReceiver(never);
    const core = newCoreWithDestination({ url: rx.url });
    const id = sendTrack(core, 'd');
    const detail = await settled(core, id);
    const attempt = detail.attempts[0]!;
    expect(attempt.outcome).toBe('timeout');
    expect(attempt.retryable).toBe(true);
    expect(attempt.durationMs).toBeGreaterThanOrEqual(5000);
    expect(attempt.durationMs).toBeLessThan(7000);
    expect(detail.deliveries[0]!.status).toBe('retrying');
    // The first retry is due 5 s ± 20 % after the attempt finished, on the engine clock.
    const due = detail.deliveries[0]!.nextAttemptAt! - attempt.finishedAt;
    expect(due).toBeGreaterThanOrEqual(4000);
    expect(due).toBeLessThanOrEqual(6000);
    rx.respond = status(200);
    must(await core.advanceClock({ ms: 6000 }));
    expect(must(core.getMessage({ id })).message.status).toBe('delivered');
  }, 20_000);
});
