// What `npm start` runs (scripts/start.mjs): the desktop app when an Electron binary is installed and
// better-sqlite3 is (or can be) built for it; otherwise `hookbench serve`, with the reason.
import { join } from 'node:path';
import { findElectron } from './electron-binary.mjs';
import { ensureElectronSqlite } from './electron-native.mjs';

/**
 * @returns {Promise<{ desktop: boolean, command: string, args: string[], env: NodeJS.ProcessEnv, note: string | null }>}
 */
export async function planStart({ root, args, env = process.env, ensure = ensureElectronSqlite, log = () => {} }) {
  const electron = findElectron(root, env);
  let why = electron.binary ? null : electron.why;
  if (electron.binary) {
    try {
      const binding = await ensure({ root, electronVersion: electron.version, log });
      const childEnv = { ...env, HOOKBENCH_SQLITE_BINDING: binding };
      delete childEnv.ELECTRON_RUN_AS_NODE;
      return { desktop: true, command: electron.binary, args: [join(root, 'dist', 'main', 'desktop', 'main.js'), ...args], env: childEnv, note: null };
    } catch (e) {
      why = `better-sqlite3 could not be built for Electron ${electron.version} (${e instanceof Error ? e.message.split('\n')[0] : String(e)}); retry with \`node scripts/electron-native.mjs --force\``;
    }
  }
  return {
    desktop: false,
    command: process.execPath,
    args: [join(root, 'dist', 'main', 'cli.js'), 'serve', ...args],
    env,
    note: `The desktop app is unavailable: ${why}.\nStarting the browser UI instead: open the "Hookbench ready:" URL below in any browser.\n`,
  };
}
