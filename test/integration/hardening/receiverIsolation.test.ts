/**
 * One request to the mock receiver must never take the process down. Here the signature
 * check and the messageId lookup are made to throw (as the unbounded diagnosis once did on deep JSON): the
 * request is still answered, the capture is still recorded when it can be, and later requests work.
 */
import { request } from 'undici';
import { describe, expect, it, vi } from 'vitest';
import { must, newCore, onCleanup } from '../../helpers/harness.js';

const failures = vi.hoisted(() => ({ signature: false, messageId: false }));
vi.mock('../../../main/domain/receiverScript.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../../main/domain/receiverScript.js')>();
  return {
    ...original,
    checkSignature: (...args: Parameters<typeof original.checkSignature>) => {
      if (failures.signature) throw new RangeError('Maximum call stack size exceeded');
      return original.checkSignature(...args);
    },
    messageIdOf: (...args: Parameters<typeof original.messageIdOf>) => {
      if (failures.messageId) throw new Error('boom');
      return original.messageIdOf(...args);
    },
  };
});

describe('the mock receiver isolates each request', () => {
  it('a failing signature diagnosis still gives a verdict and a capture; a failing capture still gives an answer', async () => {
    const core = newCore();
    must(core.createReceiver({ name: 'rx', secret: 's3cret', script: 201 }));
    const { url } = await core.receivers.start({ host: '127.0.0.1', port: 0, tlsPort: null });
    onCleanup(() => core.receivers.stop());
    const post = async () => {
      const res = await request(`${url}/r/rx`, { method: 'POST', headers: { 'x-signature': 'ab'.repeat(20) }, body: '{"messageId":"m1"}' });
      await res.body.dump();
      return res.statusCode;
    };

    failures.signature = true;
    expect(await post()).toBe(201);
    const [capture] = must(core.receivers.listCaptures({ receiver: 'rx' })).items;
    expect(capture!.signature).toMatchObject({ verdict: 'invalid', diagnosis: { mistakes: ['unknown'] } });
    expect(capture!.signature!.diagnosis!.explanation).toContain('the diagnosis failed (Maximum call stack size exceeded)');
    failures.signature = false;

    failures.messageId = true;
    expect(await post()).toBe(500);
    failures.messageId = false;

    expect(await post()).toBe(201);
    expect(must(core.receivers.listCaptures({ receiver: 'rx' })).items).toHaveLength(2);
  });
});
