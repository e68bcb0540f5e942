/**
 * `hookbench serve` (SPEC-NOTES §9): the engine, the ingestion API, the typed API and the UI in one
 * process, found by other commands through `<data>/server.json`.
 */
import { existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HookbenchError, type ApiError } from '../contract/result.js';
import { applyConfig, readConfigFile } from '../engine/config.js';
import { createCore, type Core } from '../engine/createCore.js';
import { resolveDataDir } from '../engine/dataDir.js';
import { createCommandHandlers } from '../engine/commandHandlers.js';
import { startServer, type RunningServer } from '../server/httpServer.js';
import { guardWrites } from '../server/writeGuard.js';
import { EXIT, type CliIO } from './io.js';
import { HOOKBENCH_VERSION } from '../contract/version.js';

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

/** `<data>/server.json`: how `delete-user`, scripts and the desktop shell find a running serve. */
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

export interface RunningServe {
  core: Core;
  server: RunningServer;
  info: ServerInfo;
  dataDir: string;
  stop(): Promise<void>;
}

export const SERVER_INFO_FILE = 'server.json';

/** The built renderer (dist/renderer), when there is one. */
export function findUiDir(): string | null {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    for (const candidate of [join(dir, 'renderer'), join(dir, 'dist', 'renderer')]) {
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

export async function startServe(options: ServeOptions, io: CliIO): Promise<RunningServe> {
  const dataDir = resolveDataDir(options.dataDir ?? options.data);
  const core = createCore({ dataDir });
  let server: RunningServer | null = null;
  try {
    if (options.config) {
      const config = readConfigFile(options.config);
      if (!config.ok) throw new HookbenchError(config.error);
      const applied = applyConfig(core, config.value, {
        applyReceivers: (receivers) => {
          const r = core.receivers.applyConfig(receivers);
          return r.ok ? { ok: true, value: { created: r.value.created.map((n) => `receiver ${n}`), updated: r.value.updated.map((n) => `receiver ${n}`) } } : r;
        },
      });
      if (!applied.ok) throw new HookbenchError({ ...applied.error, message: `config ${options.config}: ${applied.error.message}` });
      const { created, updated } = applied.value;
      const said = [created.length ? `created ${created.join(', ')}` : '', updated.length ? `updated ${updated.join(', ')}` : ''].filter(Boolean);
      io.stderr(`config ${options.config}: ${said.length ? said.join('; ') : 'nothing to create or update'}\n`);
    }
    const receiver = await core.receivers.start({ host: options.host, port: options.receiverPort, tlsPort: options.receiverTlsPort });
    const token = core.apiToken();
    let info: ServerInfo | null = null;
    const uiUrlOf = (base: string, t: string) => `${base}/?token=${t}`;
    const handlers = createCommandHandlers(core, {
      getSettings: () => {
        const settings = core.getSettings();
        if (!settings.ok || !info) return settings;
        return { ok: true, value: { ...settings.value, url: info.url, uiUrl: info.uiUrl, ingestUrl: info.url, receiverUrl: info.receiverUrl, receiverTlsUrl: info.receiverTlsUrl } };
      },
      rotateToken: () => {
        const rotated = core.rotateApiToken();
        if (info) {
          info = { ...info, token: rotated, uiUrl: uiUrlOf(info.url, rotated) };
          writeServerInfo(dataDir, info);
        }
        return { ok: true, value: { token: rotated, uiUrl: info?.uiUrl ?? null } };
      },
    });
    server = await startServer({ core, host: options.host, port: options.port, token: () => core.apiToken(), handlers: guardWrites(handlers, core.store.health), uiDir: findUiDir() });
    // A database file deleted, replaced or damaged under us: said once, clearly (writes answer 503 meanwhile).
    core.store.health.onFailure((error) => io.stderr(`hookbench serve: ${error.message}\n`));
    const unwatch = core.store.health.watch(1000);
    info = {
      version: HOOKBENCH_VERSION,
      pid: process.pid,
      url: server.url,
      uiUrl: uiUrlOf(server.url, token),
      port: server.port,
      token,
      receiverUrl: receiver.url,
      receiverTlsUrl: receiver.tlsUrl,
    };
    writeServerInfo(dataDir, info);
    const running = server;
    const started = info;
    let stopped = false;
    return {
      core,
      server: running,
      /** server.json as it is now (rotateToken changes it). */
      get info() {
        return info ?? started;
      },
      dataDir,
      async stop() {
        if (stopped) return;
        stopped = true;
        unwatch();
        await running.close(); // stop accepting; in-flight requests finish
        await core.close(); // in-flight rounds are recorded
        try {
          rmSync(join(dataDir, SERVER_INFO_FILE), { force: true });
        } catch (e) {
          // A data dir made read-only meanwhile: the stop is still clean; the stale file names a pid that is gone.
          io.stderr(`hookbench serve: could not remove ${join(dataDir, SERVER_INFO_FILE)} (${(e as NodeJS.ErrnoException).code ?? String(e)}); remove it by hand\n`);
        }
      },
    };
  } catch (e) {
    await server?.close();
    await core.close();
    throw e;
  }
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
  // The other commands find this serve by its data dir: say which flag they need, if any.
  const explicit = options.dataDir ?? options.data;
  const dataDirArg = explicit === undefined ? '' : ` --data-dir ${/^[\w@%+=:,./-]+$/.test(explicit) ? explicit : JSON.stringify(explicit)}`;
  io.stderr(
    [
      `  data dir:      ${running.dataDir}`,
      `  ingestion API: ${running.info.url}/v1/batch (write keys: see your sources)`,
      `  typed API:     POST ${running.info.url}/api/<command> with "Authorization: Bearer <token>" (hookbench info token${dataDirArg})`,
      `  watch it:      hookbench tail${dataDirArg}   (one message: hookbench show <id>${dataDirArg})`,
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
