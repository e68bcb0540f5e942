/**
 * The desktop app for real, driven by Playwright's _electron: where an Electron binary is installed (and, on
 * Linux, a display: run under xvfb-run). Elsewhere, as on the machines that cannot download Electron, it
 * skips and says why.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { _electron, type ElectronApplication } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HookbenchBridge } from '../../../main/contract/bridge.js';
import type { Result } from '../../../main/contract/result.js';
import { findElectron } from '../../../scripts/electron-binary.mjs';
import { newDataDir } from '../../helpers/harness.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const electron = findElectron(ROOT);
const noDisplay = process.platform === 'linux' && !process.env['DISPLAY'] && !process.env['WAYLAND_DISPLAY'];
const skipWhy = !electron.binary ? ('why' in electron ? electron.why : 'no Electron binary') : noDisplay ? 'no display on this Linux machine (run the tests under xvfb-run)' : null;
if (skipWhy) console.info(`desktop smoke test skipped: ${skipWhy}`);

/** What the test reads of the page's globals (the test has no DOM types). */
type PageGlobals = {
  hookbench?: HookbenchBridge;
  require?: unknown;
  process?: unknown;
  ipcRenderer?: unknown;
  document: { getElementById(id: string): { textContent: string | null } | null };
};

describe.skipIf(skipWhy !== null)('the desktop app (Playwright _electron)', () => {
  let app: ElectronApplication | null = null;
  afterEach(async () => {
    await app?.close();
    app = null;
  });

  beforeAll(async () => {
    await promisify(execFile)('npm', ['run', 'build:main'], { cwd: ROOT, timeout: 120_000 });
  }, 600_000);

  it('opens the hardened window on its own workbench; the page gets window.hookbench and nothing of Node, and no eval; quitting removes server.json', async () => {
    const dataDir = newDataDir();
    app = await _electron.launch({
      executablePath: electron.binary!,
      args: [
        ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), // Chromium refuses root without it (containers)
        join(ROOT, 'dist', 'main', 'desktop', 'main.js'),
        '--data', dataDir, '--port', '0', '--receiver-port', '0', '--receiver-tls-port', '0',
      ],
      env: { ...process.env } as Record<string, string>,
    });
    const page = await app.firstWindow();
    await page.waitForFunction(() => (globalThis as unknown as PageGlobals).document.getElementById('bridge')?.textContent?.startsWith('Desktop bridge connected') ?? false);

    const globals = await page.evaluate(() => {
      const g = globalThis as unknown as PageGlobals;
      return [typeof g.hookbench, typeof g.require, typeof g.process, typeof g.ipcRenderer];
    });
    expect(globals).toEqual(['object', 'undefined', 'undefined', 'undefined']);
    const settings = await page.evaluate(() => (globalThis as unknown as PageGlobals).hookbench!.call('getSettings', {}));
    expect(settings as Result<unknown>).toMatchObject({ ok: true, value: { dataDir, versions: { electron: expect.any(String) } } });

    // the CSP holds: no eval in the page
    const evalResult = await page.evaluate(() => {
      try {
        return String((0, eval)('1 + 1'));
      } catch (e) {
        return (e as Error).name;
      }
    });
    expect(evalResult).toBe('EvalError');
    expect(existsSync(join(dataDir, 'server.json'))).toBe(true);

    await app.close();
    app = null;
    expect(existsSync(join(dataDir, 'server.json'))).toBe(false);
  });
});

describe('the desktop smoke test', () => {
  it('runs where Electron is installed, and otherwise has said why it skipped', () => {
    expect(skipWhy === null || skipWhy.length > 0).toBe(true);
  });
});
