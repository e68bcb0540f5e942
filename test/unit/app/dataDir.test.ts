import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveDataDir } from '../../../main/app/dataDir.js';

describe('data dir resolution (docs/behaviour.md §10)', () => {
  it('--data wins, then $HOOKBENCH_DATA, then the per-user Hookbench folder of each platform', () => {
    expect(resolveDataDir('/x', { HOOKBENCH_DATA: '/y' }, 'linux', '/home/u')).toBe('/x');
    expect(resolveDataDir(undefined, { HOOKBENCH_DATA: '/y' }, 'linux', '/home/u')).toBe('/y');
    expect(resolveDataDir(undefined, { XDG_CONFIG_HOME: '/cfg' }, 'linux', '/home/u')).toBe(join('/cfg', 'Hookbench'));
    expect(resolveDataDir(undefined, {}, 'linux', '/home/u')).toBe(join('/home/u', '.config', 'Hookbench'));
    expect(resolveDataDir(undefined, {}, 'darwin', '/Users/u')).toBe(join('/Users/u', 'Library', 'Application Support', 'Hookbench'));
    expect(resolveDataDir(undefined, { APPDATA: 'C:\\Users\\u\\AppData\\Roaming' }, 'win32', 'C:\\Users\\u')).toBe(join('C:\\Users\\u\\AppData\\Roaming', 'Hookbench'));
  });
});
