/**
 * The app finds its data dir held: by a running `hookbench serve` (offer to attach; the window then shows that
 * serve's UI over HTTP), or by something it cannot attach to (offer to retry). A real serve runs in another
 * process, as it would beside the app.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openSession, type Answer } from '../../../main/desktop/session.js';
import type { LockedDataDirDecision } from '../../../main/desktop/startup.js';
import { newDataDir, onCleanup } from '../../helpers/harness.js';
import { holdLock } from '../../helpers/lockHolder.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const INDEX = join(ROOT, 'main', 'desktop', 'static', 'placeholder.html');

function track(child: ChildProcess): ChildProcess {
  onCleanup(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  });
  return child;
}

/** `hookbench serve` from source in a child process; resolves once it printed its ready line. */
async function serveInChild(dataDir: string): Promise<ChildProcess> {
  const child = track(
    spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'main', 'cli.ts'), 'serve', '--data', dataDir, '--port', '0', '--receiver-port', '0', '--receiver-tls-port', '0'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  let out = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString('utf8');
      if (/^Hookbench ready: /m.test(out)) resolve();
    });
    child.on('exit', (code) => reject(new Error(`serve exited (${code}) before it was ready: ${out}`)));
  });
  return child;
}

const workbench = (dataDir: string) => ({ dataDir, host: '127.0.0.1', port: 0, receiverPort: 0, receiverTlsPort: 0, uiDir: null });

describe('a data dir held by another process', () => {
  it('held by a running serve: the app offers to attach, and attached, its page is that serve\'s UI', async () => {
    const dataDir = newDataDir();
    const serve = await serveInChild(dataDir);
    const asked: LockedDataDirDecision[] = [];
    const session = await openSession({ workbench: workbench(dataDir), indexFile: INDEX, ask: async (d) => (asked.push(d), 'attach') });

    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ action: 'offerAttach', message: expect.stringContaining(`hookbench serve (pid ${serve.pid})`) });
    expect(session?.mode).toBe('attached');
    if (session?.mode !== 'attached') return;
    expect(session.info.pid).toBe(serve.pid);
    expect(session.page).toEqual({ kind: 'serve', url: session.info.uiUrl, origin: new URL(session.info.url).origin });
    // the renderer then talks to that serve over HTTP, with the token its uiUrl carries
    const token = new URL(session.info.uiUrl).searchParams.get('token');
    const res = await fetch(`${session.info.url}/api/listDestinations`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{}' });
    expect(await res.json()).toEqual({ ok: true, value: { items: [], nextCursor: null } });
  });

  it('the user may quit instead', async () => {
    const dataDir = newDataDir();
    await serveInChild(dataDir);
    expect(await openSession({ workbench: workbench(dataDir), indexFile: INDEX, ask: async () => 'quit' })).toBeNull();
  });

  it('held by something that is not a serve: the app offers to retry, and a retry after it ended opens the data dir', async () => {
    const dataDir = newDataDir();
    // a process that holds the lock the way `hookbench send --data-dir` does: alive, no server.json
    const holder = track(await holdLock(dataDir));
    const asked: LockedDataDirDecision[] = [];
    const session = await openSession({
      workbench: workbench(dataDir),
      indexFile: INDEX,
      ask: async (d): Promise<Answer> => {
        asked.push(d);
        const exited = once(holder, 'exit');
        holder.kill('SIGKILL');
        await exited;
        return 'retry';
      },
    });
    expect(asked).toEqual([expect.objectContaining({ action: 'offerRetry', message: `The data dir is in use by another Hookbench process (pid ${holder.pid}).` })]);
    expect(session?.mode).toBe('own');
    if (session?.mode !== 'own') return;
    onCleanup(() => session.workbench.stop());
    expect(new URL(session.page.url).pathname).toBe(new URL(`file://${INDEX}`).pathname);
    expect(new URL(session.page.url).searchParams.get('api')).toBe(session.workbench.info.url);
  });
});
