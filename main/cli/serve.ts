/**
 * `hookbench serve` (SPEC-NOTES §9): the engine, the ingestion API, the typed API and the UI in one
 * process, found by other commands through `<data>/server.json`.
 */
import { HookbenchError } from '../contract/result.js';
import { resolveDataDir } from '../engine/dataDir.js';
import { startWorkbench, type RunningWorkbench } from '../server/workbench.js';
import { EXIT, type CliIO } from './io.js';

export interface ServeOptions {
  config?: string | undefined;
  data?: string | undefined;
  host: string;
  port: number;
  receiverPort: number;
  receiverTlsPort: number;
}

export type RunningServe = RunningWorkbench;

/** The workbench (server/workbench.ts) on the chosen data dir and ports; a busy port is an error. */
export function startServe(options: ServeOptions, io: CliIO): Promise<RunningServe> {
  return startWorkbench({
    dataDir: resolveDataDir(options.data),
    config: options.config,
    host: options.host,
    port: options.port,
    receiverPort: options.receiverPort,
    receiverTlsPort: options.receiverTlsPort,
    busyPorts: 'fail',
    log: (line) => io.stderr(`${line}\n`),
  });
}

/** Runs until Ctrl-C or SIGTERM (io.signal), then stops cleanly: exit 0. */
export async function runServe(options: ServeOptions, io: CliIO): Promise<number> {
  let running: RunningServe;
  try {
    running = await startServe(options, io);
  } catch (e) {
    const message = e instanceof HookbenchError ? e.error.message : e instanceof Error ? e.message : String(e);
    io.stderr(`hookbench serve: ${message}\n`);
    return e instanceof HookbenchError && e.error.code !== 'data_dir_locked' ? EXIT.usage : EXIT.failed;
  }
  io.stdout(`Hookbench ready: ${running.info.uiUrl}\n`);
  io.stderr(
    [
      `  data dir:      ${running.dataDir}`,
      `  ingestion API: ${running.info.url}/v1/batch (write keys: see your sources)`,
      `  typed API:     POST ${running.info.url}/api/<command> with "Authorization: Bearer <token from server.json>"`,
      `  mock receiver: ${running.info.receiverUrl}/r/<name>  (HTTPS, self-signed: ${running.info.receiverTlsUrl}/r/<name>)`,
      `  stop with Ctrl-C`,
      '',
    ].join('\n'),
  );
  await new Promise<void>((resolve) => {
    if (!io.signal) return; // never stops by itself without a signal
    if (io.signal.aborted) return resolve();
    io.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  io.stderr('stopping: finishing in-flight work...\n');
  await running.stop();
  io.stderr('stopped.\n');
  return EXIT.ok;
}
