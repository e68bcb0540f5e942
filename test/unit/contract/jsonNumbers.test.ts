import { describe, expect, it } from 'vitest';
import { firstUnkeptLiteral, unkeptNumber } from '../../../main/contract/jsonNumbers.js';

const problem = (text: string) => unkeptNumber(text, JSON.parse(text));

describe('a JSON number a double does not keep', () => {
  it('is named by its field, with what it would be delivered as: more digits than a double holds', () => {
    expect(problem('{"userId":"u","properties":{"small":1,"i":9007199254740993}}')).toEqual({
      field: 'properties.i',
      message: 'properties.i: 9007199254740993 would be delivered as 9007199254740992 (a JSON number is a double: 15 significant digits are always kept, more only for some numbers); send it as a string',
    });
    expect(problem('{"batch":[{"properties":{"big":12345678901234567890123}}]}')?.message).toBe(
      'batch[0].properties.big: 12345678901234567890123 would be delivered as 1.2345678901234568e+22 (a JSON number is a double: 15 significant digits are always kept, more only for some numbers); send it as a string',
    );
    expect(problem('{"p":{"f":1.23456789012345678}}')?.field).toBe('p.f');
    // 2^60 exactly: a double holds it, but what is written for it is 1152921504606847000, another number to a receiver that reads integers.
    expect(problem('{"n":1152921504606846976}')?.message).toMatch(/^n: 1152921504606846976 would be delivered as 1152921504606847000 /);
  });

  it('and beyond its range, as before', () => {
    expect(problem('{"p":{"n":1e400}}')).toEqual({ field: 'p.n', message: 'p.n: a number beyond the range of a double (±1.8e308) would be delivered as null; send it as a string' });
  });

  it('is never a number that any JSON encoder writes from a double, nor one with trailing zeros, an exponent or a sign that changes nothing', () => {
    for (const fine of ['0.30000000000000004', '1152921504606847000', '1.7976931348623157e+308', '9007199254740992', '1.0000000000000000000', '12345678901234500000e-5', '-0.00000000000000001', '5e-324', '-0']) {
      expect(problem(`{"n":${fine}}`), fine).toBeNull();
    }
    // Digits inside strings are not numbers.
    expect(firstUnkeptLiteral('{"id":"9007199254740993","n":1}')).toBeNull();
  });
});
