/**
 * The config file fuzzed with fast-check (test/fuzz/configFuzz.ts),
 * applied as `hookbench serve --config` applies it. Seeded and bounded here; `npm run soak` runs it long.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkHostile, checkRoundTrip, checkUnknownKey, hostileConfigArb, unknownKeyArb, validConfigArb } from '../../fuzz/configFuzz.js';
import { newCore, newDataDir } from '../../helpers/harness.js';
import { applyConfigFile } from '../../../main/server/workbench.js';

describe('the config file under fuzzing (docs/behaviour.md §10)', () => {
  it('a valid config round-trips: the core holds what the file says, and applying it again changes nothing', () => {
    const core = newCore({ autoStart: false });
    const dir = newDataDir();
    fc.assert(
      fc.property(validConfigArb, (config) => checkRoundTrip(core, dir, config)),
      { numRuns: 60, seed: 1310 },
    );
  });

  it('an unknown key anywhere is refused with its path and a "did you mean" for a typo; nothing is applied', () => {
    const core = newCore({ autoStart: false });
    const dir = newDataDir();
    let typos = 0;
    fc.assert(
      fc.property(unknownKeyArb, (c) => {
        checkUnknownKey(core, dir, c);
        if (c.typoOf) typos++;
      }),
      { numRuns: 80, seed: 1311 },
    );
    expect(typos).toBeGreaterThan(20);
  });

  it('anything else is applied or refused naming the file and a field: never another exception, never half applied', () => {
    const core = newCore({ autoStart: false });
    const dir = newDataDir();
    const seen = { applied: 0, refused: 0 };
    fc.assert(
      fc.property(hostileConfigArb, (text) => {
        seen[checkHostile(core, dir, text)]++;
      }),
      { numRuns: 120, seed: 1312 },
    );
    expect(seen.refused).toBeGreaterThan(30);
  });

  it('a file refused at its destinations leaves no receiver of it behind (found by the fuzzer: the receivers stayed in memory)', () => {
    const core = newCore({ autoStart: false });
    const dir = newDataDir();
    const text = JSON.stringify({ receivers: [{ name: 'rx', script: 200 }], destinations: [{ name: 'd', url: 'receiver:rx', sources: ['no-such-source'] }] });
    expect(checkHostile(core, dir, text)).toBe('refused');
    expect(core.receivers.getReceiver({ name: 'rx' }).ok).toBe(false);
  });

  it('a file that is JSON but not an object says so, naming the file (found by the fuzzer: it named no field)', () => {
    const core = newCore({ autoStart: false });
    const dir = newDataDir();
    for (const text of ['null', '[]', '"x"', '42']) expect(checkHostile(core, dir, text), text).toBe('refused');
  });

  it('an empty or dotted unknown key is named quoted, so that the path stays readable (found by the fuzzer)', () => {
    const core = newCore({ autoStart: false });
    const dir = newDataDir();
    const file = join(dir, 'odd-keys.json');
    writeFileSync(file, JSON.stringify({ '': 0 }));
    expect(() => applyConfigFile(core, file)).toThrow('[""]: unknown field');
    writeFileSync(file, JSON.stringify({ sources: [{ name: 's', kind: 'web', 'write.key': 'x' }] }));
    expect(() => applyConfigFile(core, file)).toThrow('sources[0]["write.key"]: unknown field');
  });
});
