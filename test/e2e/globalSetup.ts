/**
 * Before the e2e run: say plainly when Chromium is missing (the tests then skip), otherwise build the
 * renderer that `hookbench serve` will serve (HOOKBENCH_E2E_NO_BUILD=1 reuses dist/renderer).
 */
import { build } from 'vite';
import { join } from 'node:path';
import { CHROMIUM, chromiumMissing } from './browser.js';
import { ROOT } from './serve.js';

export default async function setup(): Promise<void> {
  if (chromiumMissing) {
    process.stdout.write(
      `\ne2e: SKIPPED: no Chromium at ${CHROMIUM}. Install it (Debian: apt-get install -y chromium; .ci/run does) or point HOOKBENCH_CHROMIUM at one.\n\n`,
    );
    return;
  }
  if (process.env['HOOKBENCH_E2E_NO_BUILD'] === '1') return;
  // The production build, as serve ships it (vitest's NODE_ENV=test would select React's development build).
  const nodeEnv = process.env['NODE_ENV'];
  process.env['NODE_ENV'] = 'production';
  try {
    await build({ configFile: join(ROOT, 'renderer', 'vite.config.ts'), logLevel: 'warn', mode: 'production' });
  } finally {
    process.env['NODE_ENV'] = nodeEnv;
  }
}
