// `npm run dist`: builds, then packages the desktop app with electron-builder for this OS (electron-builder.yml).
//
// electron-builder rebuilds node_modules/better-sqlite3 for Electron in place (npmRebuild). Afterwards this
// puts Node's build back, so that the CLI and `npm test` keep working, whether packaging succeeded or not.
// npm's `nodedir` (e.g. ~/.npmrc nodedir=/usr) is removed for the packaging step: it would point node-gyp at
// Node's headers instead of Electron's.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildEnv } from './electron-native.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const shell = process.platform === 'win32';
const run = (cmd, args, env = process.env) => spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env, shell }).status ?? 1;

let status = run('npm', ['run', 'build']);
if (status === 0) {
  status = run(join(root, 'node_modules', '.bin', shell ? 'electron-builder.cmd' : 'electron-builder'), ['--publish', 'never', ...process.argv.slice(2)], buildEnv());
  console.error('Restoring better-sqlite3 for Node (the CLI and npm test use it)...');
  const restored = run('npm', ['rebuild', 'better-sqlite3']);
  if (restored !== 0) console.error('npm rebuild better-sqlite3 failed: run it before `npm test`.');
}
process.exit(status);
