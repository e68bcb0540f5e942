import { describe, expect, it } from 'vitest';
import { electronBindingPath, electronNativeKey, sqliteNativeBinding } from '../../main/store/nativeBinding.js';

describe('better-sqlite3 binding by runtime', () => {
  it('Node keeps the binary npm built; Electron loads the one HOOKBENCH_SQLITE_BINDING names', () => {
    const env = { HOOKBENCH_SQLITE_BINDING: '/x/better_sqlite3.node' };
    expect(sqliteNativeBinding({ node: '20.19.0' } as NodeJS.ProcessVersions, env)).toBeUndefined();
    expect(sqliteNativeBinding({ node: '22.0.0', electron: '41.7.1' } as NodeJS.ProcessVersions, env)).toBe('/x/better_sqlite3.node');
    expect(sqliteNativeBinding({ node: '22.0.0', electron: '41.7.1' } as NodeJS.ProcessVersions, {})).toBeUndefined(); // packaged: rebuilt in place
  });

  it('one build per Electron version, platform and arch, under .electron-native/', () => {
    expect(electronNativeKey('41.7.1', 'linux', 'x64')).toBe('electron-41.7.1-linux-x64');
    expect(electronBindingPath('/repo', 'electron-41.7.1-linux-x64')).toBe('/repo/.electron-native/electron-41.7.1-linux-x64/node_modules/better-sqlite3/build/Release/better_sqlite3.node');
  });
});
