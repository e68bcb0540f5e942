import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { findElectron } from '../../scripts/electron-binary.mjs';
import { buildEnv, electronBindingPath as scriptBindingPath, electronNativeKey as scriptKey, ensureElectronSqlite, type RebuildOptions } from '../../scripts/electron-native.mjs';
import { planStart } from '../../scripts/launch-plan.mjs';
import { electronBindingPath, electronNativeKey } from '../../main/store/nativeBinding.js';
import { tempDir } from '../helpers/tempDir.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

/** A project root with node_modules/electron (binary or not) and node_modules/better-sqlite3. */
function fakeProject({ binary, sqliteVersion = '12.11.1' }: { binary: boolean; sqliteVersion?: string }): string {
  const t = tempDir();
  cleanups.push(t.cleanup);
  const electron = join(t.dir, 'node_modules', 'electron');
  mkdirSync(join(electron, 'dist'), { recursive: true });
  writeFileSync(join(electron, 'package.json'), JSON.stringify({ name: 'electron', version: '41.7.1' }));
  if (binary) {
    writeFileSync(join(electron, 'path.txt'), 'electron');
    writeFileSync(join(electron, 'dist', 'electron'), '');
  }
  const sqlite = join(t.dir, 'node_modules', 'better-sqlite3');
  mkdirSync(join(sqlite, 'build', 'Release'), { recursive: true });
  mkdirSync(join(sqlite, 'src'), { recursive: true });
  writeFileSync(join(sqlite, 'package.json'), JSON.stringify({ name: 'better-sqlite3', version: sqliteVersion }));
  writeFileSync(join(sqlite, 'src', 'better_sqlite3.cpp'), '// source');
  writeFileSync(join(sqlite, 'build', 'Release', 'better_sqlite3.node'), 'node ABI');
  return t.dir;
}

/** Stands in for @electron/rebuild: writes the binary where a real build would, and records what it saw. */
function fakeRebuild() {
  const seen: { options: RebuildOptions; nodedir: string | undefined; copiedBuild: boolean }[] = [];
  const rebuild = async (options: RebuildOptions) => {
    const module = join(options.buildPath, 'node_modules', 'better-sqlite3');
    seen.push({ options, nodedir: process.env['npm_config_nodedir'], copiedBuild: existsSync(join(module, 'build')) });
    mkdirSync(join(module, 'build', 'Release'), { recursive: true });
    writeFileSync(join(module, 'build', 'Release', 'better_sqlite3.node'), `electron ${options.electronVersion}`);
  };
  return { rebuild, seen };
}

describe('better-sqlite3 for Electron (scripts/electron-native.mjs)', () => {
  it('the script and the app agree on where the Electron build lives', () => {
    expect(scriptKey('41.7.1', 'linux', 'x64')).toBe(electronNativeKey('41.7.1', 'linux', 'x64'));
    expect(scriptBindingPath('/r', 'k')).toBe(electronBindingPath('/r', 'k'));
  });

  it('stages a copy without Node\'s build, rebuilds it for Electron without npm\'s nodedir, once per version', async () => {
    const root = fakeProject({ binary: true });
    const { rebuild, seen } = fakeRebuild();
    process.env['npm_config_nodedir'] = '/usr';
    try {
      const path = await ensureElectronSqlite({ root, electronVersion: '41.7.1', rebuild });
      expect(path).toBe(electronBindingPath(root, electronNativeKey('41.7.1')));
      expect(readFileSync(path, 'utf8')).toBe('electron 41.7.1');
      expect(seen).toEqual([
        {
          options: { buildPath: join(root, '.electron-native', electronNativeKey('41.7.1')), electronVersion: '41.7.1', arch: process.arch, onlyModules: ['better-sqlite3'], force: true, mode: 'sequential' },
          nodedir: undefined,
          copiedBuild: false,
        },
      ]);
      expect(process.env['npm_config_nodedir']).toBe('/usr'); // restored
      // node_modules' own (Node) build is untouched
      expect(readFileSync(join(root, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'), 'utf8')).toBe('node ABI');

      await ensureElectronSqlite({ root, electronVersion: '41.7.1', rebuild });
      expect(seen).toHaveLength(1); // already built
      writeFileSync(join(root, 'node_modules', 'better-sqlite3', 'package.json'), JSON.stringify({ name: 'better-sqlite3', version: '12.12.0' }));
      await ensureElectronSqlite({ root, electronVersion: '41.7.1', rebuild });
      expect(seen).toHaveLength(2); // a new better-sqlite3 is built again
    } finally {
      delete process.env['npm_config_nodedir'];
    }
  });

  it('buildEnv drops nodedir in any case and keeps the rest', () => {
    expect(buildEnv({ npm_config_nodedir: '/usr', NPM_CONFIG_NODEDIR: '/usr', PATH: '/bin' })).toEqual({ PATH: '/bin' });
  });
});

describe('npm start (scripts/launch-plan.mjs)', () => {
  it('without an Electron binary: serve, saying why in one line', async () => {
    const root = fakeProject({ binary: false });
    const plan = await planStart({ root, args: ['--port', '0'], env: { ELECTRON_SKIP_BINARY_DOWNLOAD: '1' } });
    expect(plan).toMatchObject({ desktop: false, command: process.execPath, args: [join(root, 'dist', 'main', 'cli.js'), 'serve', '--port', '0'] });
    expect(plan.note).toMatch(/^The desktop app is unavailable: no Electron 41\.7\.1 binary is installed: its download was skipped \(ELECTRON_SKIP_BINARY_DOWNLOAD is set\)\./);
  });

  it('with one: the desktop app, given the Electron build of better-sqlite3', async () => {
    const root = fakeProject({ binary: true });
    const plan = await planStart({ root, args: ['--data', '/tmp/d'], env: { ELECTRON_RUN_AS_NODE: '1', HOME: '/h' }, ensure: async () => '/built/better_sqlite3.node' });
    expect(plan).toEqual({
      desktop: true,
      command: join(root, 'node_modules', 'electron', 'dist', 'electron'),
      args: [join(root, 'dist', 'main', 'desktop', 'main.js'), '--data', '/tmp/d'],
      env: { HOME: '/h', HOOKBENCH_SQLITE_BINDING: '/built/better_sqlite3.node' },
      note: null,
    });
  });

  it('when the Electron build fails: serve, naming the failure and the retry', async () => {
    const root = fakeProject({ binary: true });
    const plan = await planStart({ root, args: [], env: {}, ensure: async () => Promise.reject(new Error('gyp ERR! no network')) });
    expect(plan.desktop).toBe(false);
    expect(plan.note).toContain('better-sqlite3 could not be built for Electron 41.7.1 (gyp ERR! no network); retry with `node scripts/electron-native.mjs --force`');
  });

  it('findElectron reads the electron package without requiring it', () => {
    expect(findElectron(fakeProject({ binary: true }))).toMatchObject({ version: '41.7.1', binary: expect.stringMatching(/electron$/) });
  });
});

describe('npm install (scripts/postinstall.mjs)', () => {
  it('here (no Electron binary) it prints one line saying the browser UI will be used, and succeeds', async () => {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [join(ROOT, 'scripts', 'postinstall.mjs')], { env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' } });
    if (findElectron(ROOT).binary) return expect(stdout).toBe(''); // a machine with Electron: nothing to say
    expect(stdout.trim().split('\n')).toEqual([expect.stringMatching(/^hookbench: the desktop app is unavailable \(.+\); `npm start` will run the browser UI instead\.$/)]);
    expect(stderr).toBe('');
  });
});
