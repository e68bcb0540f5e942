// What `npm start` runs (scripts/start.mjs): the desktop app when an Electron binary is installed; otherwise
// `hookbench serve`, with the reason. better-sqlite3 is a Node-API addon, so Electron loads the same binary
// as Node and nothing is rebuilt for it.
import { join } from 'node:path';
import { findElectron } from './electron-binary.mjs';

/**
 * @returns {{ desktop: boolean, command: string, args: string[], env: NodeJS.ProcessEnv, note: string | null }}
 */
export function planStart({ root, args, env = process.env }) {
  const electron = findElectron(root, env);
  if (electron.binary) {
    const childEnv = { ...env };
    delete childEnv.ELECTRON_RUN_AS_NODE;
    return { desktop: true, command: electron.binary, args: [join(root, 'dist', 'main', 'desktop', 'main.js'), ...args], env: childEnv, note: null };
  }
  return {
    desktop: false,
    command: process.execPath,
    args: [join(root, 'dist', 'main', 'cli.js'), 'serve', ...args],
    env,
    note: `The desktop app is unavailable: ${electron.why}.\nStarting the browser UI instead: open the "Hookbench ready:" URL below in any browser.\n`,
  };
}
