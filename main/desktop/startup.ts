/**
 * What the app does when its data dir is already held by another process. Pure: the caller reads the lock
 * error, server.json, whether pids live and whether the serve answers, and then asks the user.
 */
import type { ServerInfo } from '../server/workbench.js';

export type LockedDataDirDecision =
  /** A `hookbench serve` holds it and answers: offer to attach (the window then shows that serve's UI). */
  | { action: 'offerAttach'; info: ServerInfo; message: string; detail: string }
  /** Something else holds it (a CLI command, a serve still starting or not answering): offer to retry. */
  | { action: 'offerRetry'; message: string; detail: string };

export interface LockedDataDirFacts {
  dataDir: string;
  /** The pid the lock names (the data_dir_locked error's value), when known. */
  holderPid: number | null;
  /** The data dir's server.json, when there is a readable one. */
  info: ServerInfo | null;
  isAlive(pid: number): boolean;
  /** Whether the serve of `info` answered on its URL (checked only when `info` names a live pid). */
  answers: boolean;
  ownPid: number;
}

export function decideLockedDataDir(facts: LockedDataDirFacts): LockedDataDirDecision {
  const { dataDir, holderPid, info } = facts;
  const holder = holderPid ?? info?.pid ?? null;
  const servesIt = info !== null && info.pid !== facts.ownPid && (holderPid === null || holderPid === info.pid) && facts.isAlive(info.pid);
  if (servesIt && facts.answers) {
    return {
      action: 'offerAttach',
      info,
      message: `Hookbench is already running on this data dir: hookbench serve (pid ${info.pid}) at ${info.url}.`,
      detail: `Attach to it to use its engine and mock receiver from this window, or quit and stop it first.\n\nData dir: ${dataDir}`,
    };
  }
  const who = holder === null ? 'another Hookbench process' : `another Hookbench process (pid ${holder})`;
  const why = servesIt
    ? `It is a hookbench serve, but it does not answer at ${info.url} yet.`
    : 'It is not a hookbench serve this app can attach to (for example a `hookbench send --data-dir` run).';
  return {
    action: 'offerRetry',
    message: `The data dir is in use by ${who}.`,
    detail: `${why} Retry when it has finished, or quit.\n\nData dir: ${dataDir}`,
  };
}
