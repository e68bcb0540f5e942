import { describe, expect, it } from 'vitest';
import type { DeliveryRecord, MessageRecord } from '../../../main/contract/models';
import type { Result } from '../../../main/contract/result';
import { createCompat } from '../../../renderer/src/api/compat';
import type { Transport } from '../../../renderer/src/api/transport';

/** A transport that answers from a table, like a server without the plan's new commands. */
function fakeTransport(answers: Record<string, (input: unknown) => Result<unknown>>): Transport & { calls: string[] } {
  const calls: string[] = [];
  return {
    kind: 'http',
    calls,
    async call(name, input) {
      calls.push(name);
      const answer = answers[name];
      return answer ? answer(input) : { ok: false, error: { code: 'not_found', message: `unknown command "${name}"` } };
    },
    subscribe: () => () => {},
    connectionState: () => 'open',
    onConnectionChange: () => () => {},
    close() {},
  };
}

const record: MessageRecord = {
  id: 7,
  messageId: 'm7',
  type: 'track',
  sourceId: null,
  userId: 'u1',
  event: 'Signed Up',
  status: 'queued',
  statusReason: null,
  receivedAt: 1000,
  body: '{"a":1}',
  call: { anonymousId: 'anon' },
  replayOf: null,
};
const delivery = (patch: Partial<DeliveryRecord>): DeliveryRecord => ({
  id: 1,
  messageId: 7,
  destinationId: 'd1',
  destinationName: 'D',
  status: 'retrying',
  reason: null,
  attempts: 1,
  firstAttemptAt: 1000,
  nextAttemptAt: 6000,
  pendingUrls: [],
  updatedAt: 1000,
  ...patch,
});

describe('ADAPTER: the plan over today’s API (goes when the lead’s commands land)', () => {
  it('turns full records into summaries and delivery updates into messageUpdated events', () => {
    const compat = createCompat(fakeTransport({}));
    const [accepted] = compat.translate([{ type: 'messageAccepted', message: record }]);
    expect(accepted).toMatchObject({ type: 'messageAccepted', message: { id: 7, anonymousId: 'anon', bytes: 7, attempts: 0 } });
    const events = compat.translate([{ type: 'deliveryUpdated', delivery: delivery({}), messageStatus: 'retrying' }]);
    expect(events[1]).toMatchObject({ type: 'messageUpdated', message: { id: 7, status: 'retrying', attempts: 1, nextAttemptAt: 6000, destinationIds: ['d1'] } });
  });

  it('asks the server first and stands in only when it answers "unknown command"', async () => {
    const transport = fakeTransport({ getClock: () => ({ ok: true, value: { now: 5000, offsetMs: 0 } }) });
    const compat = createCompat(transport);
    const overview = await compat.call('getOverview', {});
    expect(overview.ok).toBe(true);
    expect(transport.calls).toEqual(['getOverview', 'getClock']);
    await compat.call('getOverview', {});
    expect(transport.calls).toEqual(['getOverview', 'getClock', 'getClock']);
    const reset = await compat.call('resetClock', {});
    expect(reset.ok).toBe(false);
  });
});
