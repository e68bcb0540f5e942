/**
 * `hookbench serve` (SPEC-NOTES §9): the engine, the ingestion API, the typed API and the UI in one
 * process, found by other commands through `<data>/server.json`.
 */
import { existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HookbenchError } from '../contract/result.js';
import { applyConfig, readConfigFile } from '../engine/config.js';
import { createCore, type Core } from '../engine/createCore.js';
import { resolveDataDir } from '../engine/dataDir.js';
import { createCommandHandlers } from '../engine/commandHandlers.js';
import { startServer, type RunningServer } from '../server/httpServer.js';
import { EXIT, type CliIO } from './io.js';
import { HOOKBENCH_VERSION } from '../contract/version.js';

export interface ServeOptions {
  config?: string | undefined;
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

/**
 * The built renderer, `dist/renderer` (npm run build:renderer), found from this file whether it runs
 * from dist/main/cli (built, packaged) or main/cli (tsx). The source folder `renderer/` is not a build.
 */
export function findUiDir(start: string = dirname(fileURLToPath(import.meta.url))): string | null {
  let dir = start;
  for (let i = 0; i < 5; i++) {
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

export async function startServe(options: ServeOptions, io: CliIO): Promise<RunningServe> {
  const dataDir = resolveDataDir(options.data);
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
      io.stderr(`config ${options.config}: ${created.length} created, ${updated.length} updated\n`);
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
    server = await startServer({ core, host: options.host, port: options.port, token: () => core.apiToken(), handlers, uiDir: findUiDir() });
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
        await running.close(); // stop accepting; in-flight requests finish
        await core.close(); // in-flight rounds are recorded
        rmSync(join(dataDir, SERVER_INFO_FILE), { force: true });
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
