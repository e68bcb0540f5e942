// `npm start`: the desktop app when an Electron binary is installed; otherwise `hookbench serve` with the UI in
// any browser, saying why (scripts/launch-plan.mjs). Extra arguments go to either
// (npm start -- --port 0 --config hookbench.config.json).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { planStart } from './launch-plan.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
if (!existsSync(join(root, 'dist', 'main', 'cli.js')) || !existsSync(join(root, 'dist', 'main', 'desktop', 'main.js'))) {
  console.error('Building Hookbench (first run)...');
  const built = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

const plan = planStart({ root, args: process.argv.slice(2) });
if (plan.note) console.error(plan.note);
const child = spawn(plan.command, plan.args, { cwd: root, stdio: 'inherit', env: plan.env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
