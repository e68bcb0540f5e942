/**
 * `hookbench serve` (docs/behaviour.md §10): the engine, the ingestion API, the typed API and the UI in one
 * process, found by other commands through `<data>/server.json`.
 */
import { chmodSync, existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { HookbenchError, type ApiError } from '../../contract/result.js';
import { resolveDataDir } from '../../app/dataDir.js';
import { startWorkbench, type RunningWorkbench, type WorkbenchPort } from '../../server/workbench.js';
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
  const dataDir = resolveDataDir(options.dataDir ?? options.data);
  // A serve refused (a usage error, a port in use, a bad config) leaves the disk as it found it.
  const undo = undoDataDir(dataDir);
  const running = await startWorkbench({
    dataDir,
    config: options.config,
    host: options.host,
    port: options.port,
    receiverPort: options.receiverPort,
    receiverTlsPort: options.receiverTlsPort,
    busyPorts: 'fail',
    log: (line) => io.stderr(`${line}\n`),
    problem: (message) => io.stderr(`hookbench serve: ${message}\n`),
  }).catch((e: unknown) => {
    try {
      undo();
    } catch {
      // What could not be put back stays (a folder not ours to change): the refusal is what is said.
    }
    throw e;
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

/**
 * What puts the disk back as it was before a data dir was opened at `dataDir`: the folders made for it removed
 * (the topmost that did not exist, with all below it), or an empty folder given emptied again with its mode.
 * A folder that held anything is never touched.
 */
function undoDataDir(dataDir: string): () => void {
  let top: string | null = null;
  for (let p = dataDir; !existsSync(p) && dirname(p) !== p; p = dirname(p)) top = p;
  if (top !== null) {
    const made = top;
    return () => rmSync(made, { recursive: true, force: true });
  }
  let mode: number;
  try {
    if (readdirSync(dataDir).length > 0) return () => undefined;
    mode = statSync(dataDir).mode & 0o777;
  } catch {
    return () => undefined;
  }
  return () => {
    for (const entry of readdirSync(dataDir)) rmSync(join(dataDir, entry), { recursive: true, force: true });
    chmodSync(dataDir, mode);
  };
}

/**
 * Runs until Ctrl-C or SIGTERM (io.signal), then stops cleanly: exit 0. `env` says whether `npm start` runs
 * it, so a port conflict suggests the command the user typed.
 */
export async function runServe(options: ServeOptions, io: CliIO, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let running: RunningServe;
  try {
    running = await startServe(options, io);
  } catch (e) {
    const message = e instanceof HookbenchError ? flagWords(e.error, options.host, env) : e instanceof Error ? e.message : String(e);
    io.stderr(`hookbench serve: ${message}\n`);
    // Input and configuration problems are usage errors (2); a data dir in use, a port in use or a database
    // that cannot be used is not (1).
    const cannotListen = e instanceof HookbenchError && e.error.code === 'conflict' && (e.error.field === 'port' || e.error.field === 'tlsPort' || e.error.field === 'ports');
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

const PORT_FLAGS: Record<WorkbenchPort['option'], { flag: string; what: string }> = {
  port: { flag: '--port', what: 'the API and UI' },
  receiverPort: { flag: '--receiver-port', what: 'the mock receiver (HTTP)' },
  receiverTlsPort: { flag: '--receiver-tls-port', what: 'the mock receiver (HTTPS)' },
};

/**
 * Every busy port with the flag that moves it, and the command that moves them all, as the user runs it:
 * flags reach serve through npm only after `--`.
 */
function portWords(error: ApiError, host: string, env: NodeJS.ProcessEnv): string {
  const ports = error.value as WorkbenchPort[];
  const flags = ports.map((p) => PORT_FLAGS[p.option].flag);
  if (error.code !== 'conflict') return `${flags.join(' and ')} both name port ${ports[0]!.port}: give each its own, or 0 for a free one`;
  const command = env['npm_lifecycle_event'] === 'start' ? 'npm start --' : 'npx hookbench serve';
  const rows = ports.map((p) => `  ${`${PORT_FLAGS[p.option].flag} ${p.port}`.padEnd(26)} ${PORT_FLAGS[p.option].what}`);
  const head = ports.length === 1 ? `port ${ports[0]!.port} is` : `${ports.length} ports are`;
  return [
    `${head} already in use on ${host} (another Hookbench or another program listens there):`,
    ...rows,
    `Move ${ports.length === 1 ? 'it with its flag' : 'each with its flag'}, 0 for a free port: ${command} ${flags.map((f) => `${f} 0`).join(' ')}`,
  ].join('\n');
}

/** The mock receiver's listen errors name its fields (`port: ...`); say the flags instead. */
function flagWords(error: ApiError, host: string, env: NodeJS.ProcessEnv): string {
  if (error.field === 'ports' && Array.isArray(error.value)) return portWords(error, host, env);
  if (error.field === 'port') return error.message.replace(/^port: /, '--receiver-port: ');
  if (error.field === 'tlsPort') return error.message.replace(/^tlsPort: /, '--receiver-tls-port: ');
  return error.message;
}
