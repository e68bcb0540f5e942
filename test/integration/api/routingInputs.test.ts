/**
 * listRoutingInputs (the Destinations editor's filter preview): what routing reads of the newest messages,
 * of the sources asked for, with each integrations key reduced to what routing makes of it and nothing else
 * of the call.
 */
import { describe, expect, it } from 'vitest';
import { createCommandHandlers } from '../../../main/app/commandHandlers.js';
import { dispatch } from '../../../main/contract/dispatch.js';
import type { RoutingInputs } from '../../../main/contract/diagnostics.js';
import { must, newCore } from '../../helpers/harness.js';

describe('listRoutingInputs', () => {
  it("answers each newest message's source, type, event, routed integrations and deliveries, for the sources asked", async () => {
    const core = newCore({ autoStart: false });
    const web = must(core.createSource({ name: 'web', kind: 'web', writeKey: 'wk_web_0123456789' }));
    const ios = must(core.createSource({ name: 'ios', kind: 'mobile', writeKey: 'wk_ios_0123456789' }));
    const hooks = must(core.createDestination({ name: 'Hooks', enabled: true, url: 'http://127.0.0.1:9/x', sources: ['web', 'ios'] }));
    const sent = must(
      core.sendMessages({
        messages: [
          { type: 'track', source: 'web', call: { userId: 'a', event: 'Plain' } },
          // Options an integration carries (here a secret-looking value) are not routing's business: only the key's verdict leaves.
          { type: 'track', source: 'web', call: { userId: 'a', event: 'Opted out', integrations: { All: false, Webhooks: { apiKey: 'not-for-the-preview' }, Other: 0 } } },
          { type: 'identify', source: 'ios', call: { userId: 'a', traits: {}, integrations: { Hooks: false } } },
        ],
      }),
    );
    const ids = sent.map((s) => s.message.id);
    const handlers = createCommandHandlers(core);
    const all = await dispatch(handlers, 'listRoutingInputs', {});
    if (!all.ok) throw new Error(all.error.message);
    const answer = all.value as RoutingInputs;
    expect(answer.looked).toBe(3);
    expect(answer.items).toEqual([
      { id: ids[2], sourceId: ios.id, type: 'identify', event: null, integrations: { Hooks: false }, destinationIds: [] },
      { id: ids[1], sourceId: web.id, type: 'track', event: 'Opted out', integrations: { All: false, Webhooks: true, Other: null }, destinationIds: [hooks.id] },
      { id: ids[0], sourceId: web.id, type: 'track', event: 'Plain', integrations: null, destinationIds: [hooks.id] },
    ]);
    expect(JSON.stringify(answer)).not.toContain('not-for-the-preview');

    // Of one source (by name or id), among the newest `limit`.
    const ofWeb = await dispatch(handlers, 'listRoutingInputs', { sourceIds: ['web'], limit: 2 });
    expect(ofWeb.ok && ofWeb.value).toEqual({ looked: 2, items: [expect.objectContaining({ id: ids[1] })] });
    const refused = await dispatch(handlers, 'listRoutingInputs', { limit: 1001 });
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_input', field: 'limit' } });
  });
});
