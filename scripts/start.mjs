// `npm start`: the desktop app when an Electron binary and the desktop shell are present; otherwise
// `hookbench serve` with the UI in any browser, saying why. Extra arguments go to `serve`
// (npm start -- --port 0 --config hookbench.config.json).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'dist', 'main', 'cli.js');
const desktopMain = join(root, 'dist', 'main', 'desktop', 'main.js');

if (!existsSync(cli)) {
  console.error('Building Hookbench (first run)...');
  const built = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

function electronBinary() {
  const pathFile = join(root, 'node_modules', 'electron', 'path.txt');
  if (!existsSync(pathFile)) return null;
  const binary = join(root, 'node_modules', 'electron', 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : null;
}

const electron = electronBinary();
const args = process.argv.slice(2);
let child;
if (electron && existsSync(desktopMain)) {
  child = spawn(electron, [desktopMain, ...args], { cwd: root, stdio: 'inherit' });
} else {
  const why = !electron
    ? 'No Electron binary is installed (it is skipped where it cannot be downloaded: ELECTRON_SKIP_BINARY_DOWNLOAD=1).'
    : 'The desktop shell is not built in this copy yet.';
  console.error(`${why}\nStarting the browser UI instead: open the "Hookbench ready:" URL below in any browser.\n`);
  child = spawn(process.execPath, [cli, 'serve', ...args], { cwd: root, stdio: 'inherit' });
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
