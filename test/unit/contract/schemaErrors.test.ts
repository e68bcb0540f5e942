import { describe, expect, it } from 'vitest';
import { parseCommandInput } from '../../../main/contract/dispatch.js';

describe('an input with several problems', () => {
  it('names the first as the error and every other in problems, each with its field and limit', () => {
    const refused = parseCommandInput('createDestination', { name: '', url: 'ftp://x', timeoutMs: 99_999_999 });
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    const { error } = refused;
    expect(error).toMatchObject({ code: 'invalid_input', field: 'name', limit: 1 });
    expect(error.message).toMatch(/^name: .*\(and 2 more problems\)$/);
    expect(error.problems?.map((p) => p.field)).toEqual(['url', 'timeoutMs']);
    const timeout = error.problems?.find((p) => p.field === 'timeoutMs');
    expect(timeout?.limit).toBeGreaterThan(0);
    expect(timeout?.message).toMatch(/^timeoutMs: /);
  });

  it('has no problems list when there is one problem', () => {
    const refused = parseCommandInput('createDestination', { name: 'ok', url: 'ftp://x' });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.problems).toBeUndefined();
  });
});
