/**
 * main.ts itself, run in Node with a fake `electron` (test/fixtures/fake-electron): the lifecycle as the app
 * would live it: lock, sandbox, hardened session and window, its own workbench on the data dir, the page
 * calling through IPC, then a clean quit. And the attach path against a serve in another process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { newDataDir, onCleanup } from '../../helpers/harness.js';
import { lockIsFree } from '../../helpers/lockHolder.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const REGISTER = join(ROOT, 'test', 'fixtures', 'fake-electron', 'register.mjs');

interface Report {
  calls: unknown[][];
  windows: { options: { webPreferences: Record<string, unknown> }; url: string | null; guards: string[]; windowOpenHandler: string | null }[];
  handlers: string[];
  ipc: { own?: { ok: boolean; value?: { dataDir: string; url: string } }; foreign?: { ok: boolean; error?: { code: string } }; sources?: { ok: boolean; value?: { items: { name: string }[] } } };
  menu: string[] | null;
  errors: string[];
  boxes: { message?: string; buttons?: string[]; detail?: string; title?: string; content?: string }[];
  exitCode: number | null;
}

async function runMain(dataDir: string, answer: number, extra: string[] = [], env: Record<string, string> = {}): Promise<{ report: Report; stderr: string }> {
  const reportFile = join(newDataDir(), 'report.json');
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--import', REGISTER, join(ROOT, 'main', 'desktop', 'main.ts'), '--data', dataDir, '--port', '0', '--receiver-port', '0', '--receiver-tls-port', '0', ...extra],
    { cwd: ROOT, env: { ...process.env, FAKE_ELECTRON_REPORT: reportFile, FAKE_ELECTRON_ANSWER: String(answer), ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  child.stdout!.resume();
  const [code] = (await once(child, 'exit')) as [number | null];
  if (!existsSync(reportFile)) throw new Error(`main.ts exited (${code}) without a report:\n${stderr}`);
  return { report: JSON.parse(readFileSync(reportFile, 'utf8')) as Report, stderr };
}

async function serveInChild(dataDir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'main', 'cli.ts'), 'serve', '--data', dataDir, '--port', '0', '--receiver-port', '0', '--receiver-tls-port', '0'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  onCleanup(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString('utf8');
      if (/^Hookbench ready: /m.test(out)) resolve();
    });
    child.on('exit', (code) => reject(new Error(`serve exited (${code}): ${out}`)));
  });
  return child;
}

describe('main.ts under a fake Electron', () => {
  it('own workbench: locks, sandboxes, hardens, loads the page with the bridge, answers it over IPC, refuses others; closing its last window quits cleanly', async () => {
    const dataDir = newDataDir();
    const { report, stderr } = await runMain(dataDir, 1);
    expect(report.errors).toEqual([]);
    expect(report.exitCode).toBe(0);
    const names = report.calls.map((c) => c[0]);
    expect(names).toEqual(expect.arrayContaining(['enableSandbox', 'requestSingleInstanceLock', 'onHeadersReceived', 'setPermissionRequestHandler', 'setPermissionCheckHandler']));
    expect(report.calls).toContainEqual(['setPath', 'userData', join(dataDir, 'electron')]);

    expect(report.windows).toHaveLength(1);
    const [win] = report.windows;
    expect(win!.options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, devTools: true });
    expect(win!.options.webPreferences['preload']).toMatch(/main[\\/]desktop[\\/]preload\.cjs$/);
    expect(win!.guards).toEqual(expect.arrayContaining(['will-frame-navigate', 'will-redirect', 'will-attach-webview']));
    expect(win!.windowOpenHandler).toBe('function');
    expect(new URL(win!.url!).protocol).toBe('file:');

    expect(report.handlers).toContain('hookbench:call');
    expect(report.ipc.own).toMatchObject({ ok: true, value: { dataDir } });
    expect(new URL(win!.url!).searchParams.get('api')).toBe(report.ipc.own!.value!.url);
    expect(report.ipc.foreign).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
    expect(report.menu).toEqual(expect.arrayContaining(['open-config', 'reveal-data-dir', 'reload', 'documentation', 'editMenu', 'windowMenu']));
    expect(stderr).toContain('secrets are encrypted with the OS keychain');
    // File → Show data folder opens the data dir; Help → Documentation opens the README (docs/desktop.md "Menu")
    expect(report.calls).toContainEqual(['openPath', dataDir]);
    expect(report.calls).toContainEqual(['openPath', join(ROOT, 'README.md')]);
    // a second start on this data dir restores and focuses the open window (docs/desktop.md "One app per data dir")
    expect(report.calls).toEqual(expect.arrayContaining([['restore', 1], ['focus', 1]]));

    // quit stopped the workbench: server.json gone, the lock released
    expect(existsSync(join(dataDir, 'server.json'))).toBe(false);
    expect(lockIsFree(dataDir)).toBe(true);
  });

  it('a serve holds the data dir: the app asks, attaches, and shows that serve\'s page with no bridge and no IPC', async () => {
    const dataDir = newDataDir();
    const serve = await serveInChild(dataDir);
    const info = JSON.parse(readFileSync(join(dataDir, 'server.json'), 'utf8')) as { uiUrl: string; pid: number };
    const { report } = await runMain(dataDir, 0);
    expect(report.errors).toEqual([]);
    expect(report.boxes).toEqual([{ message: expect.stringContaining(`hookbench serve (pid ${serve.pid})`), buttons: ['Attach', 'Quit'], detail: expect.any(String) }]);
    expect(report.windows[0]!.url).toBe(info.uiUrl);
    expect(report.windows[0]!.options.webPreferences).not.toHaveProperty('preload');
    expect(report.handlers).toEqual([]);
    expect(serve.exitCode).toBeNull(); // the serve is untouched
  });

  it('started again on a data dir whose app is open (the single-instance lock is taken): quits at once, opening nothing', async () => {
    const dataDir = newDataDir();
    const { report } = await runMain(dataDir, 1, [], { FAKE_ELECTRON_LOCKED: '1' });
    expect(report.errors).toEqual([]);
    expect(report.exitCode).toBe(0);
    expect(report.windows).toEqual([]);
    expect(report.handlers).toEqual([]);
    expect(existsSync(join(dataDir, 'server.json'))).toBe(false);
    expect(lockIsFree(dataDir)).toBe(true);
  });

  it('a port taken by something else: the app listens on a free one, says so, and its page talks to that one', async () => {
    const busy = createServer();
    busy.listen(0, '127.0.0.1');
    await once(busy, 'listening');
    onCleanup(() => new Promise<void>((resolve) => busy.close(() => resolve())));
    const port = (busy.address() as AddressInfo).port;
    const dataDir = newDataDir();
    const { report, stderr } = await runMain(dataDir, 1, ['--port', String(port)]);
    expect(report.errors).toEqual([]);
    expect(stderr).toMatch(new RegExp(`${port}.*the API listens on a free port instead`));
    const api = new URL(new URL(report.windows[0]!.url!).searchParams.get('api')!);
    expect(Number(api.port)).not.toBe(port);
    expect(report.ipc.own).toMatchObject({ ok: true, value: { url: api.origin } });
  });

  it('File → Open config… applies a good file and says what it created; a file with a problem is applied not at all, and says why', async () => {
    const dataDir = newDataDir();
    const good = join(newDataDir(), 'good.json');
    writeFileSync(good, JSON.stringify({ sources: [{ name: 'backend', kind: 'server' }] }));
    const applied = await runMain(dataDir, 1, [], { FAKE_ELECTRON_OPEN: good });
    expect(applied.report.errors).toEqual([]);
    expect(applied.report.boxes).toEqual([{ message: 'Config applied: 1 created, 0 updated.', detail: expect.stringContaining('backend') }]);
    expect(applied.report.ipc.sources?.value?.items.map((s) => s.name)).toEqual(['backend']);

    const bad = join(newDataDir(), 'bad.json');
    writeFileSync(bad, JSON.stringify({ sources: [{ name: 'web', kind: 'web' }], destinations: [{ name: 'Hooks', enabled: true, sources: ['web'] }] }));
    const refused = await runMain(dataDir, 1, [], { FAKE_ELECTRON_OPEN: bad });
    expect(refused.report.errors).toEqual([]);
    expect(refused.report.boxes).toEqual([{ message: 'The config was not applied (nothing of it was).', detail: expect.stringContaining('destinations[0]') }]);
    expect(refused.report.ipc.sources?.value?.items.map((s) => s.name)).toEqual(['backend']); // web was not created
  });

  it('the user quits at the question: no window, exit 0', async () => {
    const dataDir = newDataDir();
    await serveInChild(dataDir);
    const { report } = await runMain(dataDir, 1);
    expect(report.windows).toEqual([]);
    expect(report.exitCode).toBe(0);
  });

  it('a start that fails (a config file that is not there) shows why and exits 1, leaving the data dir unlocked', async () => {
    const dataDir = newDataDir();
    const { report } = await runMain(dataDir, 1, ['--config', join(dataDir, 'missing.json')]);
    expect(report.boxes).toEqual([{ title: 'Hookbench cannot start', content: expect.stringContaining('missing.json') }]);
    expect(report.windows).toEqual([]);
    expect(report.exitCode).toBe(1);
    expect(lockIsFree(dataDir)).toBe(true);
  });
});
