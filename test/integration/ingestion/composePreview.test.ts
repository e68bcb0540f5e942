/**
 * The composer's preview (renderer/src/features/compose/preview.ts) says what the engine then does: the same
 * destinations receive the call, and the body bytes are the ones stored and sent.
 */
import { describe, expect, it } from 'vitest';
import { previewBody, previewRoutes } from '../../../renderer/src/features/compose/preview.js';
import type { MessageType } from '../../../main/contract/message/messageShapes.js';
import { must, newCore } from '../../helpers/harness.js';

function setup() {
  const core = newCore();
  must(core.pauseForwarding());
  must(core.createSource({ name: 'backend', kind: 'server' }));
  must(core.createSource({ name: 'website', kind: 'web' }));
  const url = 'http://127.0.0.1:9/hook';
  must(core.createDestination({ name: 'Orders', enabled: true, sources: ['backend'], webhooks: [{ url, headers: {} }], filters: { allowEvents: [], blockEvents: ['Heartbeat'] } }));
  must(core.createDestination({ name: 'Warehouse', enabled: true, sources: ['backend', 'website'], webhooks: [{ url, headers: {} }], filters: { allowEvents: ['Order Completed'], blockEvents: [] } }));
  must(core.createDestination({ name: 'Web only', enabled: true, sources: ['website'], webhooks: [{ url, headers: {} }] }));
  must(core.createDestination({ name: 'Off', enabled: false, sources: ['backend'], webhooks: [{ url, headers: {} }] }));
  return core;
}

const cases: { name: string; type: MessageType; call: Record<string, unknown>; source?: string; chosen?: string[] }[] = [
  { name: 'every enabled destination', type: 'track', call: { userId: 'u', event: 'Order Completed' } },
  { name: 'through a source', type: 'track', call: { userId: 'u', event: 'Order Completed' }, source: 'backend' },
  { name: 'an allow list', type: 'track', call: { userId: 'u', event: 'Signed Up' }, source: 'backend' },
  { name: 'a block list', type: 'track', call: { userId: 'u', event: 'Heartbeat' }, source: 'backend' },
  { name: 'integrations All=false, Orders=true', type: 'track', call: { userId: 'u', event: 'Order Completed', integrations: { All: false, Orders: true } } },
  { name: 'integrations Webhooks=false', type: 'identify', call: { userId: 'u', integrations: { Webhooks: false } } },
  { name: 'ticked, one disabled (held)', type: 'page', call: { userId: 'u', name: 'Home' }, chosen: ['Off', 'Web only'] },
  { name: 'ticked, filtered by integrations', type: 'track', call: { userId: 'u', event: 'Order Completed', integrations: { 'Web only': false } }, chosen: ['Web only', 'Orders'] },
];

describe('the compose preview', () => {
  it.each(cases)('routes like the engine: $name', ({ type, call, source, chosen }) => {
    const core = setup();
    const destinations = must(core.listDestinations()).items;
    const sources = must(core.listSources()).items;
    const chosenIds = (chosen ?? []).map((n) => destinations.find((d) => d.name === n)!.id);
    const body = previewBody(type, call, Date.now());
    if (!body.ok) throw new Error(body.error.message);
    const routes = previewRoutes({ type, event: body.event, integrations: call['integrations'], source: sources.find((s) => s.name === source) ?? null, chosen: chosenIds }, destinations);
    const sent = must(core.sendMessage({ type, call, ...(source ? { source } : {}), ...(chosen ? { destinations: chosen } : {}) }));
    expect(routes.filter((r) => r.receives).map((r) => r.destination.name).sort()).toEqual(sent.deliveries.map((d) => d.destinationName).sort());
    if (sent.deliveries.length === 0) {
      // The engine's reason for filtering names what the preview names for each candidate.
      for (const part of sent.message.statusReason!.split('; ')) expect(routes.some((r) => r.reason === part) || /no (enabled )?destination/.test(part)).toBe(true);
    }
  });

  it('previews the exact bytes the engine stores, given the same messageId and timestamp', () => {
    const core = setup();
    const call = { userId: 'user-7', event: 'Order Completed', properties: { total: 42.5, note: 'naïve ☃' }, context: { ip: '10.0.0.1' }, messageId: 'm-42', timestamp: '2026-03-07T10:00:00+01:00' };
    const body = previewBody('track', call, Date.now());
    if (!body.ok) throw new Error(body.error.message);
    expect(body.filledMessageId).toBe(false);
    expect(body.filledTimestamp).toBe(false);
    const sent = must(core.sendMessage({ type: 'track', call }));
    expect(body.json).toBe(sent.message.body);
  });
});
