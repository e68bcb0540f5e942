import { describe, expect, it } from 'vitest';
import { jsonLayout } from '../../../renderer/src/lib/jsonWrap';

const cut = (text: string, ranges: [number, number][]) => ranges.map(([from, to]) => text.slice(from, to));

describe('where a body of exact bytes may wrap', () => {
  it('between members, never inside a value: "user-7" and a timestamp stay whole', () => {
    const body = '{"type":"track","userId":"user-7","properties":{"orderId":"o-1042","total":42.5},"tags":["a,b","c"],"timestamp":"2026-11-27T21:08:45.659Z"}';
    const { members, values } = jsonLayout(body);
    expect(cut(body, members)).toEqual(['{', '"type":"track",', '"userId":"user-7",', '"properties":{', '"orderId":"o-1042",', '"total":42.5},', '"tags":[', '"a,b",', '"c"],', '"timestamp":"2026-11-27T21:08:45.659Z"}']);
    expect(cut(body, members).join('')).toBe(body);
    expect(cut(body, values)).toEqual(['"track"', '"user-7"', '"o-1042"', '"2026-11-27T21:08:45.659Z"']);
  });

  it('a comma, a brace or an escaped quote inside a string is part of the string', () => {
    const body = '{"event":"Said \\"hi, {you}\\"","n":1}';
    const { members, values } = jsonLayout(body);
    expect(cut(body, members)).toEqual(['{', '"event":"Said \\"hi, {you}\\"",', '"n":1}']);
    expect(cut(body, values)).toEqual(['"Said \\"hi, {you}\\""']);
  });
});
