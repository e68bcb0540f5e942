/**
 * The cURL export's quoting, proven by the shells that will read it: every quoted string comes back byte for
 * byte. One shell process per shell reads them all (spawning one per string took most of a minute on a busy
 * machine), each printed with a NUL after it.
 */
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shellQuote } from '../../../main/domain/export/curl.js';

const STRINGS = [
  '',
  "it's",
  '$(rm -rf /)',
  '`id`',
  '"\\n"',
  '\n\t\r',
  '!!',
  'Zoë 東京 🎉',
  "''''",
  ...fc.sample(fc.string({ unit: 'binary', maxLength: 40 }).filter((s) => !s.includes('\0')), { numRuns: 300, seed: 7 }),
];

describe('shellQuote', () => {
  it.each(['sh', 'bash'])('is exact under %s for any text without NUL', (shell) => {
    const printed = execFileSync(shell, ['-c', `printf '%s\\0' ${STRINGS.map(shellQuote).join(' ')}`]);
    const back = printed.toString('utf8').split('\0').slice(0, -1);
    expect(back).toHaveLength(STRINGS.length);
    STRINGS.forEach((s, i) => expect(Buffer.from(back[i]!, 'utf8').equals(Buffer.from(s, 'utf8')), JSON.stringify(s)).toBe(true));
  });
});
