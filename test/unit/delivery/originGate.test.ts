import { describe, expect, it } from 'vitest';
import { OriginGate } from '../../../main/delivery/connectionPools.js';

describe("the forwarder's per-origin gate", () => {
  it('lets `limit` requests of an origin in at once and the next in as each releases, in order; other origins are not held', () => {
    const gate = new OriginGate(2);
    const order: string[] = [];
    const releases = new Map<string, () => void>();
    const enter = (name: string, url: string) =>
      gate.enter(url, (release) => {
        order.push(name);
        releases.set(name, release);
      });
    enter('a1', 'http://a.test/x');
    enter('a2', 'http://a.test/y');
    enter('a3', 'http://a.test/z');
    enter('a4', 'http://a.test/z');
    enter('b1', 'http://b.test/x');
    expect(order).toEqual(['a1', 'a2', 'b1']);
    releases.get('a2')!();
    expect(order).toEqual(['a1', 'a2', 'b1', 'a3']);
    releases.get('a1')!();
    expect(order).toEqual(['a1', 'a2', 'b1', 'a3', 'a4']);
  });
});
