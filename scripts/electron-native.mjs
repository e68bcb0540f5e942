// better-sqlite3 for Electron's ABI, kept apart from node_modules' (which is built for Node: the CLI, serve and
// `npm test` load that one). `npm start` calls ensureElectronSqlite() before it opens the desktop app and names
// the result in HOOKBENCH_SQLITE_BINDING (main/store/nativeBinding.ts loads it under Electron only).
//
// A copy of the package is staged in .electron-native/<electron-version-platform-arch>/ and rebuilt there with
// @electron/rebuild: a prebuilt binary for that Electron when one is published (prebuild-install), else a
// compile against Electron's headers. `nodedir` (npm config, e.g. ~/.npmrc `nodedir=/usr`) would point node-gyp
// at Node's headers instead, so it is removed from the environment of the build.
//
// By hand: node scripts/electron-native.mjs [--force]
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ELECTRON_NATIVE_DIR = '.electron-native';
const MODULE = 'better-sqlite3';

export const electronNativeKey = (version, platform = process.platform, arch = process.arch) => `electron-${version}-${platform}-${arch}`;

/** Must match main/store/nativeBinding.ts (test/unit/electronNative.test.ts checks both). */
export const electronBindingPath = (root, key) => join(root, ELECTRON_NATIVE_DIR, key, 'node_modules', MODULE, 'build', 'Release', 'better_sqlite3.node');

/** The environment for the build: npm's nodedir settings removed (they would pick Node's headers). */
export function buildEnv(env = process.env) {
  const clean = { ...env };
  for (const key of Object.keys(clean)) if (/^npm_config_nodedir$/i.test(key)) delete clean[key];
  return clean;
}

/**
 * Returns the path of better_sqlite3.node built for Electron `electronVersion`, building it first when it is
 * missing (or `force`). `rebuild` is @electron/rebuild's (injected by tests).
 */
export async function ensureElectronSqlite({ root, electronVersion, force = false, log = () => {}, rebuild }) {
  const key = electronNativeKey(electronVersion);
  const target = electronBindingPath(root, key);
  const source = join(root, 'node_modules', MODULE);
  const version = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8')).version;
  const stage = join(root, ELECTRON_NATIVE_DIR, key);
  const stamp = join(stage, 'built-from.json');
  const wanted = JSON.stringify({ module: MODULE, version, electron: electronVersion });
  if (!force && existsSync(target) && existsSync(stamp) && readFileSync(stamp, 'utf8') === wanted) return target;

  log(`Building ${MODULE} ${version} for Electron ${electronVersion} into ${join(ELECTRON_NATIVE_DIR, key)} (once per version)...`);
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(join(stage, 'node_modules'), { recursive: true });
  writeFileSync(join(stage, 'package.json'), JSON.stringify({ name: 'hookbench-electron-native', private: true, dependencies: { [MODULE]: version } }, null, 2));
  // The package's sources without its Node build; its own dependencies resolve from the project's node_modules.
  const skipped = [join(source, 'build'), join(source, 'node_modules')];
  cpSync(source, join(stage, 'node_modules', MODULE), { recursive: true, filter: (p) => !skipped.some((s) => p === s || p.startsWith(s + sep)) });

  const run = rebuild ?? (await import('@electron/rebuild')).rebuild;
  const saved = process.env;
  process.env = buildEnv(saved); // @electron/rebuild hands process.env to prebuild-install and node-gyp
  try {
    await run({ buildPath: stage, electronVersion, arch: process.arch, onlyModules: [MODULE], force: true, mode: 'sequential' });
  } finally {
    process.env = saved;
  }
  if (!existsSync(target)) throw new Error(`the build finished without ${target}`);
  writeFileSync(stamp, wanted);
  return target;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const { findElectron } = await import('./electron-binary.mjs');
  const electron = findElectron(root);
  if (!electron.version) {
    console.error('electron is not installed');
    process.exit(1);
  }
  const path = await ensureElectronSqlite({ root, electronVersion: electron.version, force: process.argv.includes('--force'), log: console.error });
  console.log(path);
}
