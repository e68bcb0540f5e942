/**
 * The whole workbench in one process, as `hookbench serve` and the desktop app both run it: the core on a
 * data dir, the mock receiver's listeners, the HTTP server (ingestion /v1, typed API, events, UI) and
 * `<data>/server.json`, through which other commands, scripts and the desktop app find it.
 */
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CommandHandlers } from '../contract/dispatch.js';
import { HookbenchError } from '../contract/result.js';
import { HOOKBENCH_VERSION } from '../contract/version.js';
import { applyConfig, readConfigFile } from '../app/config.js';
import { createCore, type Core, type CoreOptions } from '../app/createCore.js';
import { SERVER_INFO_FILE } from '../app/dataDir.js';
import { startFailure } from '../store/integrity.js';
import type { ReceiverAddresses } from '../receiver/receiverService.js';
import { createCommandHandlers } from '../app/commandHandlers.js';
import { startServer, type RunningServer } from './httpServer.js';
import { guardWrites } from './writeGuard.js';

/** `<data>/server.json`: how `delete-user`, scripts and the desktop shell find a running workbench. */
export interface ServerInfo {
  version: string;
  pid: number;
  url: string;
  uiUrl: string;
  port: number;
  token: string;
  receiverUrl: string | null;
  receiverTlsUrl: string | null;
}

export { SERVER_INFO_FILE };

export interface WorkbenchOptions {
  dataDir: string;
  /** Bytes of ingestion bodies held at once before 503 (server/httpServer.ts's default unless given). */
  ingestBufferBytes?: number;
  /** A config file applied at start (sources, destinations, receivers). */
  config?: string | undefined;
  host: string;
  port: number;
  receiverPort: number;
  receiverTlsPort: number;
  /**
   * A port already in use: `fail`, naming every busy port at once (serve: the user chose them), or listen on
   * a free one instead (the desktop app: its window shows the addresses, and a second workbench on another
   * data dir must still start).
   */
  busyPorts?: 'fail' | 'pickFree';
  /** More core options (e.g. the desktop's secret codec). */
  core?: Omit<CoreOptions, 'dataDir'>;
  /** The built renderer served at `/` (default: found next to the code, see findUiDir). */
  uiDir?: string | null;
  /** Progress lines (config applied, a port replaced). */
  log?: (line: string) => void;
  /** Problems met while running (the database file deleted, replaced or damaged; server.json left behind). */
  problem?: (message: string) => void;
}

export interface RunningWorkbench {
  core: Core;
  server: RunningServer;
  /**
   * The typed API's handlers, as HTTP runs them through dispatch (the desktop's IPC runs the same): writes
   * refused while the database cannot keep them (server/writeGuard).
   */
  handlers: CommandHandlers;
  /** server.json as it is now (rotateToken changes it). */
  readonly info: ServerInfo;
  dataDir: string;
  /** Stops accepting, finishes in-flight work (recorded in SQLite), closes the core, removes server.json. */
  stop(): Promise<void>;
}

/**
 * The built renderer, `dist/renderer` (npm run build:renderer), found from this file whether it runs from
 * dist/main/server (built, packaged) or main/server (tsx).
 */
export function findUiDir(start: string = dirname(fileURLToPath(import.meta.url))): string | null {
  let dir = start;
  for (let i = 0; i < 5; i++) {
    // dist/renderer is the build (npm run build:renderer); the source folder renderer/ never is.
    const candidates = [join(dir, 'dist', 'renderer'), ...(basename(dir) === 'dist' ? [join(dir, 'renderer')] : [])];
    for (const candidate of candidates) {
      if (existsSync(join(candidate, 'index.html'))) return candidate;
    }
    dir = dirname(dir);
  }
  return null;
}

/** Writes the file whole or not at all (rename is atomic), readable by its owner only: it holds the token. */
export function writeServerInfo(dataDir: string, info: ServerInfo): void {
  const file = join(dataDir, SERVER_INFO_FILE);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(info, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, file);
}

/** The data dir's server.json, or null when there is none or it is not one (a torn or foreign file). */
export function readServerInfo(dataDir: string): ServerInfo | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(join(dataDir, SERVER_INFO_FILE), 'utf8'));
  } catch {
    return null;
  }
  const o = parsed as Partial<ServerInfo> | null;
  if (!o || typeof o !== 'object' || typeof o.pid !== 'number' || typeof o.url !== 'string' || typeof o.uiUrl !== 'string' || typeof o.token !== 'string') {
    return null;
  }
  return o as ServerInfo;
}

const portInUse = (e: unknown) => e instanceof Error && /\bin use\b/.test(e.message);

/** One of the ports the workbench listens on: the option that chose it, and its number. */
export interface WorkbenchPort {
  option: 'port' | 'receiverPort' | 'receiverTlsPort';
  port: number;
}

/** Whether another socket already listens on host:port (any other listen error is left to the real listen to report). */
function isPortBusy(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'EADDRINUSE'));
    probe.listen(port, host, () => probe.close(() => resolve(false)));
  });
}

/**
 * Refuses, before anything listens, ports that cannot all be had: ports another program holds, or one port
 * named for two listeners. Every busy port is named in one error (field `ports`, value the WorkbenchPort
 * list), so the user fixes them all in one go rather than one restart per port.
 */
export async function refuseBusyPorts(host: string, ports: readonly WorkbenchPort[]): Promise<void> {
  const chosen = ports.filter((p) => p.port !== 0);
  const numbers = [...new Set(chosen.map((p) => p.port))];
  const taken = new Set((await Promise.all(numbers.map(async (n) => ((await isPortBusy(host, n)) ? [n] : [])))).flat());
  const busy = chosen.filter((p) => taken.has(p.port));
  if (busy.length > 0) {
    throw new HookbenchError({ code: 'conflict', field: 'ports', value: busy, message: `ports: ${busy.map((p) => `${p.port} (${p.option})`).join(', ')} already in use on ${host}; choose others, or 0 for free ones` });
  }
  const twice = chosen.filter((p) => chosen.some((q) => q !== p && q.port === p.port));
  if (twice.length > 0) {
    throw new HookbenchError({ code: 'invalid_input', field: 'ports', value: twice, message: `ports: ${twice.map((p) => p.option).join(' and ')} name the same port ${twice[0]!.port}; give each its own` });
  }
}

/** What the API's handlers and the running workbench read as the start goes on: server.json's content and the HTTP server, once they exist. */
interface Live {
  info: ServerInfo | null;
  server: RunningServer | null;
}

const uiUrlOf = (base: string, token: string) => `${base}/?token=${token}`;

/** Destinations saved by an older version under looser rules: named now, rather than failing at every attempt unexplained. */
function nameDestinationProblems(core: Core, problem: (message: string) => void): void {
  for (const p of core.destinationProblems()) {
    problem(`destination "${p.destination}" has a webhook today's rules refuse: ${p.message.startsWith(p.field) ? p.message : `${p.field}: ${p.message}`}; its attempts fail until you fix it (Destinations, or the config file)`);
  }
}

/** The mock receiver's listeners, on the ports chosen or, with pickFree, on free ones when those are taken. */
async function listenReceivers(core: Core, options: WorkbenchOptions, log: (line: string) => void): Promise<ReceiverAddresses> {
  try {
    return await core.receivers.start({ host: options.host, port: options.receiverPort, tlsPort: options.receiverTlsPort });
  } catch (e) {
    if (options.busyPorts !== 'pickFree' || !portInUse(e)) throw e;
    log(`${(e as Error).message}: the mock receiver listens on free ports instead`);
    return core.receivers.start({ host: options.host, port: 0, tlsPort: 0 });
  }
}

/**
 * The typed API's handlers, writes refused while the database cannot keep them. Settings name the addresses
 * the workbench listens on, and a rotated token is written to server.json at once.
 */
function workbenchHandlers(core: Core, dataDir: string, live: Live): CommandHandlers {
  return guardWrites(
    createCommandHandlers(core, {
      getSettings: () => {
        const settings = core.getSettings();
        const info = live.info;
        if (!settings.ok || !info) return settings;
        return { ok: true, value: { ...settings.value, url: info.url, uiUrl: info.uiUrl, ingestUrl: info.url, receiverUrl: info.receiverUrl, receiverTlsUrl: info.receiverTlsUrl } };
      },
      rotateToken: () => {
        const rotated = core.rotateApiToken();
        if (live.info) {
          live.info = { ...live.info, token: rotated, uiUrl: uiUrlOf(live.info.url, rotated) };
          writeServerInfo(dataDir, live.info);
        }
        // What the old token opened ends with it.
        live.server?.closeStaleEventSockets();
        return { ok: true, value: { token: rotated, uiUrl: live.info?.uiUrl ?? null } };
      },
    }),
    core.health,
  );
}

/** The HTTP server, on the port chosen or, with pickFree, on a free one when it is taken. */
async function listenApi(core: Core, options: WorkbenchOptions, handlers: CommandHandlers, log: (line: string) => void): Promise<RunningServer> {
  const serverOptions = { core, host: options.host, port: options.port, token: () => core.apiToken(), handlers, uiDir: options.uiDir === undefined ? findUiDir() : options.uiDir, ...(options.ingestBufferBytes ? { ingestBufferBytes: options.ingestBufferBytes } : {}) };
  try {
    return await startServer(serverOptions);
  } catch (e) {
    if (options.busyPorts !== 'pickFree' || !portInUse(e)) throw e;
    log(`${(e as Error).message}: the API listens on a free port instead`);
    return startServer({ ...serverOptions, port: 0 });
  }
}

/** The workbench once started; its stop runs once, however often it is called. */
function runningWorkbench(parts: { core: Core; server: RunningServer; handlers: CommandHandlers; live: Live; started: ServerInfo; dataDir: string; unwatch: () => void; problem: (message: string) => void }): RunningWorkbench {
  const { core, server, handlers, live, started, dataDir, unwatch, problem } = parts;
  let stopping: Promise<void> | null = null;
  return {
    core,
    server,
    handlers,
    get info() {
      return live.info ?? started;
    },
    dataDir,
    stop() {
      stopping ??= (async () => {
        unwatch();
        await server.close(); // stop accepting; in-flight requests finish
        await core.close(); // in-flight rounds are recorded
        try {
          rmSync(join(dataDir, SERVER_INFO_FILE), { force: true });
        } catch (e) {
          // A data dir made read-only meanwhile: the stop is still clean; the stale file names a pid that is gone.
          problem(`could not remove ${join(dataDir, SERVER_INFO_FILE)} (${(e as NodeJS.ErrnoException).code ?? String(e)}); remove it by hand`);
        }
      })();
      return stopping;
    },
  };
}

export async function startWorkbench(options: WorkbenchOptions): Promise<RunningWorkbench> {
  const { dataDir } = options;
  const log = options.log ?? (() => {});
  const problem = options.problem ?? log;
  const core = createCore({ ...options.core, dataDir });
  const live: Live = { info: null, server: null };
  let unwatch = () => {};
  try {
    if (options.config) applyConfigFile(core, options.config, log);
    nameDestinationProblems(core, problem);
    if (options.busyPorts !== 'pickFree') {
      await refuseBusyPorts(options.host, [
        { option: 'port', port: options.port },
        { option: 'receiverPort', port: options.receiverPort },
        { option: 'receiverTlsPort', port: options.receiverTlsPort },
      ]);
    }
    const receiver = await listenReceivers(core, options, log);
    const token = core.apiToken();
    const handlers = workbenchHandlers(core, dataDir, live);
    const server = (live.server = await listenApi(core, options, handlers, log));
    // A database file deleted, replaced or damaged under us: said once, clearly (writes answer 503 meanwhile).
    core.health.onFailure((error) => problem(error.message));
    unwatch = core.health.watch(1000);

    const started: ServerInfo = {
      version: HOOKBENCH_VERSION,
      pid: process.pid,
      url: server.url,
      uiUrl: uiUrlOf(server.url, token),
      port: server.port,
      token,
      receiverUrl: receiver.url,
      receiverTlsUrl: receiver.tlsUrl,
    };
    live.info = started;
    writeServerInfo(dataDir, started);
    return runningWorkbench({ core, server, handlers, live, started, dataDir, unwatch, problem });
  } catch (e) {
    unwatch();
    await live.server?.close();
    await core.close();
    throw startFailure(dataDir, e);
  }
}

/** Applies a config file to the core in one transaction; throws a HookbenchError naming the file and path. */
export function applyConfigFile(core: Core, file: string, log: (line: string) => void = () => {}): { created: string[]; updated: string[] } {
  const config = readConfigFile(file);
  if (!config.ok) throw new HookbenchError(config.error);
  const applied = applyConfig(core, config.value, {
    applyReceivers: (receivers) => {
      const r = core.receivers.applyConfig(receivers);
      return r.ok ? { ok: true, value: { created: r.value.created.map((n) => `receiver ${n}`), updated: r.value.updated.map((n) => `receiver ${n}`) } } : r;
    },
  });
  if (!applied.ok) throw new HookbenchError({ ...applied.error, message: `config ${file}: ${applied.error.message}` });
  const { created, updated } = applied.value;
  const said = [created.length ? `created ${created.join(', ')}` : '', updated.length ? `updated ${updated.join(', ')}` : ''].filter(Boolean);
  log(`config ${file}: ${said.length ? said.join('; ') : 'nothing to create or update'}`);
  return { created, updated };
}
