/**
 * A typed-API command run for the CLI: through the running serve of the data dir when there is one (its
 * lock would refuse a second engine), else on the data dir itself, through the same dispatch and handlers
 * the serve uses, so both ways validate, answer and mask alike.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { HookbenchError, type Result } from '../contract/result.js';
import { resolveDataDir } from '../app/dataDir.js';
import type { Core } from '../app/createCore.js';
import { UsageError } from './io.js';
import { callApi, findLiveServe } from './remote.js';

export interface Workbench {
  call<T>(command: string, input: unknown): Promise<Result<T>>;
  /** Where the commands ran, for messages: `the serve at http://…` or the data dir's path. */
  where: string;
  /** Whether a serve runs the commands (and so delivers what they queue at once). */
  live: boolean;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * A core on the data dir itself, for a command that found no serve to ask (not started: nothing is
 * delivered). No data there, or a database it cannot open, is a usage error naming the data dir.
 */
export async function openDataDirCore(dataDirFlag: string | undefined): Promise<{ core: Core; dataDir: string }> {
  const dataDir = resolveDataDir(dataDirFlag);
  if (!existsSync(join(dataDir, 'hookbench.db'))) {
    throw new UsageError(`no Hookbench data in ${dataDir} and no serve runs there: pass --data-dir DIR of the one you mean (or start hookbench serve)`);
  }
  const { createCore } = await import('../app/createCore.js'); // loaded only when there is no serve to ask
  try {
    return { core: createCore({ dataDir, autoStart: false }), dataDir };
  } catch (e) {
    if (e instanceof HookbenchError) throw new UsageError(e.message);
    throw e;
  }
}

export async function openWorkbench(dataDirFlag: string | undefined): Promise<Workbench> {
  const live = findLiveServe(dataDirFlag);
  if (live) {
    return { call: (command, input) => callApi(live.info, command, input), where: `the serve at ${live.info.url}`, live: true, dataDir: live.dataDir, close: async () => undefined };
  }
  const { core, dataDir } = await openDataDirCore(dataDirFlag);
  const [{ createCommandHandlers }, { dispatch }] = await Promise.all([import('../app/commandHandlers.js'), import('../contract/dispatch.js')]);
  const handlers = createCommandHandlers(core);
  return {
    call: async <T>(command: string, input: unknown) => (await dispatch(handlers, command, input)) as Result<T>,
    where: dataDir,
    live: false,
    dataDir,
    close: () => core.close(),
  };
}
