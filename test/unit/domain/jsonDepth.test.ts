import { describe, expect, it } from 'vitest';
import { boundDepth, jsonDepth, scanJson, scanJsonText, tooDeepField, tooDeepMarker, valueDepth } from '../../../main/domain/jsonDepth.js';
import { deepTrackCallJson, nestedArrays } from '../../helpers/deepJson.js';

const bytes = (s: string) => Buffer.from(s, 'utf8');
const scanCall = (s: string, limit = 64) => scanJson(bytes(s), { limit });
const scanBatch = (s: string, limit = 64) => scanJson(bytes(s), { limit, shape: 'batch' });

describe('scanJson: nesting measured over the text, without parsing', () => {
  it('measures the whole document', () => {
    expect(jsonDepth(bytes('{"a":[[]],"b":"[[[["}'))).toBe(3);
    expect(scanCall('1').maxDepth).toBe(0);
    expect(scanCall('{}').maxDepth).toBe(1);
    expect(scanCall('{"a":[1,{"b":[]}]}').maxDepth).toBe(4);
    expect(scanCall(nestedArrays(100_000), Infinity).maxDepth).toBe(100_000);
  });

  it('ignores brackets, braces and escaped quotes inside strings', () => {
    expect(scanCall('{"a":"[[[{{{","b\\"[":"\\\\","c":"x\\\\\\"]]"}').maxDepth).toBe(1);
    expect(scanCall('{"a":"\\\\"}').maxDepth).toBe(1);
    expect(scanCall('{"k":"é[😀{"}').maxDepth).toBe(1);
  });

  it('names the field of a call that nests deeper than the limit, and how deep it nests', () => {
    expect(scanCall(deepTrackCallJson(5000)).tooDeep).toEqual({ field: 'properties', levels: 5001 });
    // Exactly at the limit is fine; one more is not.
    expect(scanCall(`{"properties":${nestedArrays(64)}}`).tooDeep).toBeNull();
    expect(scanCall(`{"properties":${nestedArrays(65)}}`).tooDeep).toEqual({ field: 'properties', levels: 65 });
    expect(scanCall(`{"userId":"u","context":{"a":{"b":${nestedArrays(70)}}}}`).tooDeep).toEqual({ field: 'context', levels: 72 });
    expect(scanCall(`{"k\\u00e9y":${nestedArrays(65)}}`).tooDeep?.field).toBe('kéy');
  });

  it('in a batch: names batch[i].field, counts the items and finds the write key', () => {
    const call = (levels: number) => `{"type":"track","userId":"u","event":"e","properties":{"a":${nestedArrays(levels)}}}`;
    const body = `{"writeKey":"wk_1","batch":[${call(3)},${call(5000)},${call(2)}],"sentAt":"x"}`;
    expect(scanBatch(body)).toEqual({ maxDepth: 5004, tooDeep: { field: 'batch[1].properties', levels: 5001 }, batchLength: 3, writeKey: 'wk_1', longNumber: false });
    expect(scanBatch(`{"batch":[${call(63)}]}`).tooDeep).toBeNull();
    expect(scanBatch(`{"batch":[${call(64)}]}`).tooDeep).toEqual({ field: 'batch[0].properties', levels: 65 });
    // The request's own context counts like a call's.
    expect(scanBatch(`{"batch":[],"context":${nestedArrays(65)}}`)).toMatchObject({ tooDeep: { field: 'context', levels: 65 }, batchLength: 0 });
    const deepContext = `"context":${nestedArrays(65)}`;
    expect(scanBatch(`{"batch":[ ],${deepContext}}`).batchLength).toBe(0);
    expect(scanBatch(`{"batch":[1, "]", {"a":[]}],${deepContext}}`).batchLength).toBe(3);
    // Without anything too deep, one fast pass and no detail.
    expect(scanBatch(`{"writeKey":"k","batch":[1, 2]}`)).toEqual({ maxDepth: 2, tooDeep: null, batchLength: null, writeKey: null, longNumber: false });
    // A body that is itself a deep array is named as the body.
    expect(scanBatch(nestedArrays(200)).tooDeep).toEqual({ field: 'body[0]', levels: 199 });
  });

  it('says whether a number may be one a double does not keep: an exponent of three digits or more, or 16 digits or more, a fraction\'s counted with its integer\'s', () => {
    const longNumber = (text: string) => scanCall(text).longNumber;
    for (const big of ['1e400', '1.5E400', '2e+400', '7E+0999', '-1e308', '1'.repeat(309), `0.${'1'.repeat(309)}`, '9007199254740993', '1234567890.123456', '1.7976931348623157e+30']) {
      expect(longNumber(`{"properties":{"n":${big}}}`), big).toBe(true);
      expect(longNumber(`[${big}]`), big).toBe(true);
      expect(longNumber(big), big).toBe(true);
    }
    // Exponents of two digits, negative exponents (they underflow to 0, which is sent as 0) and 15 digits are never read closely.
    for (const fits of ['1e99', '1E+099', '1e-400', '123456789012345', '12345.6789012345', 'true', 'false', 'null']) {
      expect(longNumber(`{"properties":{"n":${fits}}}`), fits).toBe(false);
    }
    // Inside strings nothing is a number, and an "e" after a string or a literal is not an exponent.
    expect(longNumber(`{"n":"1e400","m":"${'9'.repeat(400)}"}`)).toBe(false);
    expect(longNumber('{"truee400":true,"a":[false]}')).toBe(false);
  });

  it('survives malformed input (the parser refuses it afterwards)', () => {
    for (const s of ['', '"', '{"a":', ']]]]', '{"a":"\\', '[[[', '{"batch":[{"a":"b"']) expect(() => scanBatch(s)).not.toThrow();
  });

  it('scans stored text too', () => {
    expect(scanJsonText(deepTrackCallJson(100), { limit: 64 }).tooDeep).toEqual({ field: 'properties', levels: 101 });
  });

  it('costs little next to parsing: a 100-call batch scans in a fraction of JSON.parse', () => {
    const calls = Array.from({ length: 100 }, (_, i) => ({
      type: 'track',
      userId: `user-${i}`,
      event: 'Order Completed',
      properties: { total: 42.5, currency: 'EUR', items: [{ sku: 'a-1', qty: 2 }, { sku: 'b-2', qty: 1 }], note: 'quoted "text" with \\ and [brackets]' },
      context: { ip: '10.0.0.1', library: { name: 'analytics-node', version: '3.1.0' } },
      timestamp: '2026-01-02T03:04:05.678Z',
      messageId: `m-${i}`,
    }));
    const body = bytes(JSON.stringify({ batch: calls, sentAt: '2026-01-02T03:04:05.678Z' }));
    const time = (fn: () => void) => {
      for (let i = 0; i < 50; i++) fn();
      const start = performance.now();
      for (let i = 0; i < 200; i++) fn();
      return (performance.now() - start) / 200;
    };
    const scan = time(() => scanJson(body, { limit: 64, shape: 'batch' }));
    const parse = time(() => JSON.parse(body.toString('utf8')));
    // Logged for the record; asserted loosely so that a slow machine does not fail it.
    console.log(`jsonDepth: ${body.length} bytes, scan ${(scan * 1000).toFixed(1)} µs, JSON.parse ${(parse * 1000).toFixed(1)} µs`);
    expect(scan).toBeLessThan(parse * 2); // ~0.25 measured; generous so that a loaded machine does not fail it
  });
});

describe('values: depth walked with an explicit stack', () => {
  it('measures nesting of parsed values, however deep', () => {
    expect(valueDepth(1)).toBe(0);
    expect(valueDepth({ a: [1, { b: [] }] })).toBe(4);
    expect(valueDepth(JSON.parse(nestedArrays(50_000)))).toBe(50_000);
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(valueDepth(cyclic)).toBe(1);
  });

  it('names the first field of a call nesting too deep', () => {
    const call = JSON.parse(deepTrackCallJson(5000)) as Record<string, unknown>;
    expect(tooDeepField(call, 64)).toEqual({ field: 'properties', levels: 5001 });
    expect(tooDeepField({ properties: { a: 1 } }, 64)).toBeNull();
  });

  it('boundDepth returns the value itself when shallow, else a copy with the deep part replaced by a marker', () => {
    const shallow = { a: [1, 2] };
    expect(boundDepth(shallow, 3)).toBe(shallow);
    const deep = { type: 'x', message: { call: JSON.parse(`{"p":${nestedArrays(10_000)}}`) as unknown } };
    const bounded = boundDepth(deep, 5);
    expect(() => JSON.stringify(bounded)).not.toThrow();
    expect(bounded).toEqual({ type: 'x', message: { call: { p: [[tooDeepMarker(5)]] } } });
  });
});
