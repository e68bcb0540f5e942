/**
 * Commands that act on a running `hookbench serve` find it through `<data>/server.json` and call its
 * typed API with the token from that file.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Result } from '../contract/result.js';
import { resolveDataDir } from '../engine/dataDir.js';
import { SERVER_INFO_FILE, type ServerInfo } from '../server/workbench.js';
import { UsageError } from './io.js';

export function findRunningServe(dataDirFlag: string | undefined): { info: ServerInfo; file: string } {
  const dataDir = resolveDataDir(dataDirFlag);
  const file = join(dataDir, SERVER_INFO_FILE);
  let info: ServerInfo;
  try {
    info = JSON.parse(readFileSync(file, 'utf8')) as ServerInfo;
  } catch {
    throw new UsageError(`no running Hookbench found: ${file} does not exist. Start one with \`hookbench serve\` (or pass --data DIR of the one that runs)`);
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
