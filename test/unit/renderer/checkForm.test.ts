/** The Check screen's form (renderer/src/features/check/CheckForm.tsx, its checks in capacityProblem.ts): what it names under each field before anything is sent. */
import { describe, expect, it } from 'vitest';
import { capacityProblem } from '../../../renderer/src/features/check/capacityProblem';

describe('Check form: capacity problems', () => {
  it('names capacity.sustained-rate in Only these checks without Capacity (seconds) under Only these checks, in the form\'s words', () => {
    const problems = capacityProblem('', '', 'capacity.sustained-rate');
    expect(problems.only).toBe('capacity.sustained-rate measures only with Capacity (seconds) given: give the seconds, or leave it out');
    expect(problems.only).not.toMatch(/--capacity|only\[0\]/);
    expect(capacityProblem('', '', 'shapes.track, capacity.sustained-rate').only).not.toBeNull();
  });

  it('has no problem once the seconds are given, or when Only these checks leaves capacity out', () => {
    expect(capacityProblem('5', '', 'capacity.sustained-rate')).toEqual({ only: null, capacity: null, expectRate: null });
    expect(capacityProblem('', '', 'shapes.track')).toEqual({ only: null, capacity: null, expectRate: null });
    expect(capacityProblem('', '', '')).toEqual({ only: null, capacity: null, expectRate: null });
  });
});
