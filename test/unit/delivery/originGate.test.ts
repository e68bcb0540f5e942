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

  it('acquire() gives the release at once when a slot is free, and a promise of it otherwise', async () => {
    const gate = new OriginGate(1);
    const first = gate.acquire('http://a.test/');
    expect(typeof first).toBe('function');
    const second = gate.acquire('http://a.test/');
    expect(second).toBeInstanceOf(Promise);
    let got = false;
    void (second as Promise<() => void>).then(() => (got = true));
    await Promise.resolve();
    expect(got).toBe(false);
    (first as () => void)();
    const release = await second;
    expect(got).toBe(true);
    release();
    expect(typeof gate.acquire('http://a.test/')).toBe('function');
  });
});
