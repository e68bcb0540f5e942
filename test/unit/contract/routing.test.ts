import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_POLICY, type Destination } from '../../../main/contract/destinations.js';
import { routeMessage } from '../../../main/contract/message/routing.js';

const dest = (name: string, filters: Partial<Destination['filters']> = {}): Destination => ({
  id: name,
  name,
  enabled: true,
  sourceIds: [],
  sharedSecret: null,
  webhooks: [{ url: 'http://x', headers: {} }],
  caFile: null,
  timeoutMs: 5000,
  retry: DEFAULT_RETRY_POLICY,
  filters: { allowEvents: [], blockEvents: [], ...filters },
  createdAt: 0,
  updatedAt: 0,
});
const names = (r: ReturnType<typeof routeMessage>) => r.targets.map((d) => d.name);

describe('routing (docs/behaviour.md §6)', () => {
  const track = (integrations: unknown, event = 'E') => ({ type: 'track', event, integrations });

  it('a call no destination takes names each distinct reason once; one taken by any has no reason', () => {
    const blocked = (name: string) => dest(name, { blockEvents: ['E'] });
    // The same reason from three destinations is named once.
    expect(routeMessage(track({ All: false }), [dest('a'), dest('b'), dest('c')], 'none')).toEqual({ targets: [], filteredReason: 'integrations.All=false and Webhooks not enabled' });
    // Different reasons are all named, in the destinations' order.
    const mixed = routeMessage(track({ a: false }), [dest('a'), blocked('b')], 'none');
    expect(mixed.targets).toEqual([]);
    expect(mixed.filteredReason).toBe(
      [routeMessage(track({ a: false }), [dest('a')], 'none').filteredReason, routeMessage(track(undefined), [blocked('b')], 'none').filteredReason].join('; '),
    );
    expect(mixed.filteredReason!.split('; ')).toHaveLength(2);
    expect(routeMessage(track(undefined), [blocked('b'), dest('a')], 'none')).toEqual({ targets: [dest('a')], filteredReason: null });
    expect(routeMessage(track(undefined), [], 'no destination for this source')).toEqual({ targets: [], filteredReason: 'no destination for this source' });
  });
  it('by default every candidate receives the call', () => {
    expect(names(routeMessage(track(undefined), [dest('a'), dest('b')], 'none'))).toEqual(['a', 'b']);
  });

  it('integrations that are not an object, or an object without keys, route as none at all (ingestion sends null then)', () => {
    for (const integrations of [null, {}, [], 'All', 0, true]) {
      expect(routeMessage(track(integrations), [dest('a'), dest('b')], 'none'), JSON.stringify(integrations)).toEqual(routeMessage(track(undefined), [dest('a'), dest('b')], 'none'));
    }
  });
  it('a destination or Webhooks named with any truthy value is enabled under All: false; only false disables', () => {
    for (const value of [1, 'yes', [], { any: 1 }]) {
      expect(names(routeMessage(track({ All: false, Webhooks: value }), [dest('a')], 'none')), JSON.stringify(value)).toEqual(['a']);
      expect(names(routeMessage(track({ All: false, a: value }), [dest('a')], 'none')), JSON.stringify(value)).toEqual(['a']);
    }
    // Falsy values other than false neither enable nor disable: All decides.
    expect(names(routeMessage(track({ All: false, Webhooks: 0 }), [dest('a')], 'none'))).toEqual([]);
    expect(names(routeMessage(track({ Webhooks: 0 }), [dest('a')], 'none'))).toEqual(['a']);
  });
  it('All: false disables every destination unless Webhooks is truthy', () => {
    expect(routeMessage(track({ All: false }), [dest('a')], 'none')).toEqual({ targets: [], filteredReason: 'integrations.All=false and Webhooks not enabled' });
    expect(names(routeMessage(track({ All: false, Webhooks: true }), [dest('a')], 'none'))).toEqual(['a']);
    expect(names(routeMessage(track({ All: false, Webhooks: { any: 1 } }), [dest('a')], 'none'))).toEqual(['a']);
  });
  it('Webhooks: false disables; keys are case sensitive', () => {
    expect(routeMessage(track({ Webhooks: false }), [dest('a')], 'none').filteredReason).toBe('integrations.Webhooks=false');
    expect(names(routeMessage(track({ webhooks: false }), [dest('a')], 'none'))).toEqual(['a']);
  });
  it("a destination's own name is more specific than Webhooks", () => {
    expect(names(routeMessage(track({ Webhooks: false, b: true }), [dest('a'), dest('b')], 'none'))).toEqual(['b']);
  });
  it('event allow and block lists apply to track calls only', () => {
    const blocked = dest('a', { blockEvents: ['Spam'] });
    expect(routeMessage(track(undefined, 'Spam'), [blocked], 'none').filteredReason).toBe('event "Spam" is blocked by destination "a"');
    const allow = dest('a', { allowEvents: ['Paid'] });
    expect(names(routeMessage(track(undefined, 'Paid'), [allow], 'none'))).toEqual(['a']);
    expect(routeMessage(track(undefined, 'Other'), [allow], 'none').filteredReason).toContain('not in the allow list');
    expect(names(routeMessage({ type: 'identify', event: null, integrations: undefined }, [allow], 'none'))).toEqual(['a']);
  });
  it('no candidates: the caller says why', () => {
    expect(routeMessage(track(undefined), [], 'no destination is enabled').filteredReason).toBe('no destination is enabled');
  });
});
