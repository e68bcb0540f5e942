/**
 * Commands that act on a running `hookbench serve` find it through `<data>/server.json` and call its
 * typed API with the token from that file.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '../contract/messages.js';
import type { Source } from '../contract/sources.js';
import type { Result } from '../contract/result.js';
import { resolveDataDir } from '../app/dataDir.js';
import { SERVER_INFO_FILE, type ServerInfo } from '../server/workbench.js';
import { UsageError } from './io.js';

/** `<data>/server.json`, or null when it cannot be read or is not a serve's (no URL or token). */
function readServerInfo(file: string): ServerInfo | null {
  let info: ServerInfo;
  try {
    info = JSON.parse(readFileSync(file, 'utf8')) as ServerInfo;
  } catch {
    return null;
  }
  return typeof info === 'object' && info !== null && typeof info.url === 'string' && typeof info.token === 'string' ? info : null;
}

export function findRunningServe(dataDirFlag: string | undefined): { info: ServerInfo; file: string } {
  const file = join(resolveDataDir(dataDirFlag), SERVER_INFO_FILE);
  const info = readServerInfo(file);
  if (!info) {
    throw new UsageError(`no running Hookbench found: ${file} does not exist (or is not a serve's). Start one with \`hookbench serve\` (or pass --data-dir DIR of the one that runs)`);
  }
  if (!isProcessAlive(info.pid)) {
    throw new UsageError(`no running Hookbench found: ${file} names pid ${info.pid}, which no longer runs. Start one with \`hookbench serve\``);
  }
  return { info, file };
}

export async function callApi<T>(info: ServerInfo, command: string, input: unknown): Promise<Result<T>> {
  const { request } = await import('undici'); // loaded only by the commands that talk to a serve
  let res;
  try {
    res = await request(`${info.url}/api/${command}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${info.token}` },
      body: JSON.stringify(input),
    });
  } catch (e) {
    throw new UsageError(`cannot reach Hookbench at ${info.url} (pid ${info.pid}): ${(e as Error).message}. Is it still running?`);
  }
  return (await res.body.json()) as Result<T>;
}

/** Whether a process with this pid runs (EPERM: it runs, as another user). */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The serve running on this data dir, or null when none does: no readable server.json, or the pid it names
 * no longer runs (a serve that crashed leaves the file behind).
 */
export function findLiveServe(dataDirFlag: string | undefined): { info: ServerInfo; file: string; dataDir: string } | null {
  const dataDir = resolveDataDir(dataDirFlag);
  const file = join(dataDir, SERVER_INFO_FILE);
  const info = readServerInfo(file);
  return info && isProcessAlive(info.pid) ? { info, file, dataDir } : null;
}

/** Every item of a list command, following `nextCursor` (at most 100 pages). */
export async function listAll<T>(list: (input: { cursor?: string }) => Result<Page<T>> | Promise<Result<Page<T>>>): Promise<Result<T[]>> {
  const all: T[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 100; page++) {
    const answer = await list(cursor ? { cursor } : {});
    if (!answer.ok) return answer;
    all.push(...answer.value.items);
    cursor = answer.value.nextCursor;
    if (!cursor) break;
  }
  return { ok: true, value: all };
}

/** Source id → name, from the serve (the id itself for a source it does not list). */
export async function sourceNamesOf(info: ServerInfo): Promise<(id: string) => string> {
  const listed = await listAll<Source>((input) => callApi(info, 'listSources', input));
  const byId = new Map(listed.ok ? listed.value.map((s) => [s.id, s.name] as const) : []);
  return (id) => byId.get(id) ?? id;
}
