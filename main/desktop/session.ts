/**
 * Opening the app's session: its own workbench on the data dir (the same startWorkbench `hookbench serve`
 * runs), or, when a serve already holds the data dir, attaching to it after asking. No Electron here: main.ts
 * supplies the question (a dialog) and the rest is tested with a real serve in another process.
 */
import { HookbenchError } from '../contract/result.js';
import { startWorkbench, readServerInfo, type RunningWorkbench, type ServerInfo, type WorkbenchOptions } from '../server/workbench.js';
import { filePage, servePage, type AppPage } from './appPage.js';
import { decideLockedDataDir, type LockedDataDirDecision } from './startup.js';

export type DesktopSession =
  | { mode: 'own'; workbench: RunningWorkbench; page: AppPage }
  | { mode: 'attached'; info: ServerInfo; page: AppPage };

export type Answer = 'attach' | 'retry' | 'quit';

export interface SessionOptions {
  workbench: WorkbenchOptions;
  /** The renderer's index.html (or the placeholder page) shown for the app's own core. */
  indexFile: string;
  /** Asks the user what to do about a held data dir. */
  ask(decision: LockedDataDirDecision): Promise<Answer>;
  /** Whether a serve answers at its URL (default: GET /healthz). */
  answers?(info: ServerInfo): Promise<boolean>;
  isAlive?(pid: number): boolean;
}

export function pidIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export async function serveAnswers(info: ServerInfo): Promise<boolean> {
  try {
    const res = await fetch(`${info.url}/healthz`, { signal: AbortSignal.timeout(2000) });
    return res.ok;
  } catch {
    return false;
  }
}

/** Resolves to the session, or null when the user chose to quit. Errors other than a held data dir are thrown. */
export async function openSession(options: SessionOptions): Promise<DesktopSession | null> {
  const isAlive = options.isAlive ?? pidIsAlive;
  const answers = options.answers ?? serveAnswers;
  for (;;) {
    try {
      const workbench = await startWorkbench(options.workbench);
      const { info } = workbench;
      const query: Record<string, string> = { api: info.url };
      if (info.receiverUrl) query['receiver'] = info.receiverUrl;
      return { mode: 'own', workbench, page: filePage(options.indexFile, query) };
    } catch (e) {
      if (!(e instanceof HookbenchError) || e.error.code !== 'data_dir_locked') throw e;
      const { dataDir } = options.workbench;
      const info = readServerInfo(dataDir);
      const holderPid = typeof e.error.value === 'number' ? e.error.value : null;
      const decision = decideLockedDataDir({
        dataDir,
        holderPid,
        info,
        isAlive,
        answers: info !== null && isAlive(info.pid) ? await answers(info) : false,
        ownPid: process.pid,
      });
      const answer = await options.ask(decision);
      if (answer === 'quit') return null;
      if (answer === 'attach' && decision.action === 'offerAttach') return { mode: 'attached', info: decision.info, page: servePage(decision.info.uiUrl) };
    }
  }
}
