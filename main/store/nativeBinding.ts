/**
 * Which better-sqlite3 binary a process loads. Node (the CLI, `serve`, the tests) loads the one npm built, in
 * node_modules. Electron has another ABI: `npm start` builds a copy for it into `.electron-native/<key>/`
 * (scripts/electron-native.mjs) and names it in HOOKBENCH_SQLITE_BINDING; a packaged app carries one
 * rebuilt by electron-builder and needs no override. Every connection (the engine's and its worker threads')
 * opens with `sqliteOptions()`, so the choice is made by runtime, in one place.
 */
import { join } from 'node:path';

export const SQLITE_BINDING_ENV = 'HOOKBENCH_SQLITE_BINDING';
export const ELECTRON_NATIVE_DIR = '.electron-native';

/** `electron-41.7.1-linux-x64`: one build per Electron version, platform and arch. */
export function electronNativeKey(electronVersion: string, platform: string = process.platform, arch: string = process.arch): string {
  return `electron-${electronVersion}-${platform}-${arch}`;
}

/** Where scripts/electron-native.mjs leaves the Electron build of better-sqlite3 under the project root. */
export function electronBindingPath(root: string, key: string): string {
  return join(root, ELECTRON_NATIVE_DIR, key, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
}

/**
 * The binary to load: the override only under Electron (a Node process given the variable by accident keeps
 * its own, which is the right ABI for it).
 */
export function sqliteNativeBinding(versions: NodeJS.ProcessVersions = process.versions, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (!versions['electron']) return undefined;
  return env[SQLITE_BINDING_ENV] || undefined;
}

/** Options for `new Database(file, ...)`. */
export function sqliteOptions(): { nativeBinding?: string } {
  const nativeBinding = sqliteNativeBinding();
  return nativeBinding ? { nativeBinding } : {};
}
