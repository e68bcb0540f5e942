// `npm run dist`: builds, then packages the desktop app with electron-builder for this OS (electron-builder.yml).
// better-sqlite3 is a Node-API addon with its binaries inside the npm package, so nothing is rebuilt for Electron.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const shell = process.platform === 'win32';
const run = (cmd, args) => spawnSync(cmd, args, { cwd: root, stdio: 'inherit', shell }).status ?? 1;

let status = run('npm', ['run', 'build']);
if (status === 0) status = run(join(root, 'node_modules', '.bin', shell ? 'electron-builder.cmd' : 'electron-builder'), ['--publish', 'never', ...process.argv.slice(2)]);
process.exit(status);
