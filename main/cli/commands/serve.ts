/**
 * `hookbench serve` (docs/behaviour.md §10): the engine, the ingestion API, the typed API and the UI in one
 * process, found by other commands through `<data>/server.json`.
 */
import { HookbenchError, type ApiError } from '../../contract/result.js';
import { resolveDataDir } from '../../app/dataDir.js';
import { startWorkbench, type RunningWorkbench } from '../../server/workbench.js';
import { EXIT, type CliIO } from '../io.js';
import { RefusalReport, type RefusalReportOptions } from '../refusalReport.js';

export type { ServerInfo } from '../../server/workbench.js';

export interface ServeOptions {
  config?: string | undefined;
  /** `--data-dir DIR`; default: $HOOKBENCH_DATA, else the per-user folder. */
  dataDir?: string | undefined;
  /** The older name of `dataDir` (`--data DIR`), still accepted. */
  data?: string | undefined;
  host: string;
  port: number;
  receiverPort: number;
  receiverTlsPort: number;
}

export type RunningServe = RunningWorkbench;

/** The workbench (server/workbench.ts) on the chosen data dir and ports; a busy port is an error. */
export async function startServe(options: ServeOptions, io: CliIO, report: RefusalReportOptions = {}): Promise<RunningServe> {
  // Refused requests an SDK would never report (a wrong write key, a path without /v1): said here, once each.
  const refusals = new RefusalReport((line) => io.stderr(`hookbench serve: ${line}\n`), report);
  const running = await startWorkbench({
    dataDir: resolveDataDir(options.dataDir ?? options.data),
    config: options.config,
    host: options.host,
    port: options.port,
    receiverPort: options.receiverPort,
    receiverTlsPort: options.receiverTlsPort,
    busyPorts: 'fail',
    log: (line) => io.stderr(`${line}\n`),
    problem: (message) => io.stderr(`hookbench serve: ${message}\n`),
  });
  const unsubscribe = running.core.onIngestRefused((refusal) => refusals.refused(refusal));
  const stop = running.stop.bind(running);
  running.stop = () => {
    unsubscribe();
    refusals.close();
    return stop();
  };
  return running;
}

/** Runs until Ctrl-C or SIGTERM (io.signal), then stops cleanly: exit 0. */
export async function runServe(options: ServeOptions, io: CliIO): Promise<number> {
  let running: RunningServe;
  try {
    running = await startServe(options, io);
  } catch (e) {
    const message = e instanceof HookbenchError ? flagWords(e.error) : e instanceof Error ? e.message : String(e);
    io.stderr(`hookbench serve: ${message}\n`);
    // Input and configuration problems are usage errors (2); a data dir in use, a port in use or a database
    // that cannot be used is not (1).
    const cannotListen = e instanceof HookbenchError && e.error.code === 'conflict' && (e.error.field === 'port' || e.error.field === 'tlsPort');
    return e instanceof HookbenchError && e.error.code !== 'data_dir_locked' && e.error.code !== 'unavailable' && !cannotListen ? EXIT.usage : EXIT.failed;
  }
  io.stdout(`Hookbench ready: ${running.info.uiUrl}\n`);
  // The other commands find this serve by its data dir: say which flag they need, if any. A project's
  // bin is not on PATH, so the commands are said as npx runs them (as the README does).
  const explicit = options.dataDir ?? options.data;
  const dataDirArg = explicit === undefined ? '' : ` --data-dir ${/^[\w@%+=:,./-]+$/.test(explicit) ? explicit : JSON.stringify(explicit)}`;
  io.stderr(
    [
      `  data dir:      ${running.dataDir}`,
      `  ingestion API: ${running.info.url}/v1/batch (write keys: see your sources)`,
      `  typed API:     POST ${running.info.url}/api/<command> with "Authorization: Bearer <token>" (npx hookbench info token${dataDirArg})`,
      `  watch it:      npx hookbench tail${dataDirArg}   (one message: npx hookbench show <id>${dataDirArg})`,
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

/** The mock receiver's listen errors name its fields (`port: ...`); say the flags instead. */
function flagWords(error: ApiError): string {
  if (error.field === 'port') return error.message.replace(/^port: /, '--receiver-port: ');
  if (error.field === 'tlsPort') return error.message.replace(/^tlsPort: /, '--receiver-tls-port: ');
  return error.message;
}
