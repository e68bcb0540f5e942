/**
 * `hookbench info [field] [--data-dir DIR] [--json]`: the running serve's `server.json`: its URLs, pid and API
 * token. With a field name it prints that value alone, for scripts: `TOKEN=$(hookbench info token)`.
 */
import type { ServerInfo } from './serve.js';
import { EXIT, runCommand, UsageError, type CliIO } from '../io.js';
import { findRunningServe } from '../remote.js';
import { resolveDataDir } from '../../app/dataDir.js';

/** What `info <field>` can print: server.json's keys, and the data dir it was found in. */
export const INFO_FIELDS = ['url', 'uiUrl', 'token', 'port', 'pid', 'version', 'receiverUrl', 'receiverTlsUrl', 'dataDir'] as const;
export type InfoField = (typeof INFO_FIELDS)[number];

export function runInfo(field: string | undefined, opts: { dataDir?: string | undefined; json?: boolean | undefined }, io: CliIO): number {
  return runCommand(io, 'info', () => {
    if (field !== undefined && !(INFO_FIELDS as readonly string[]).includes(field)) {
      throw new UsageError(`unknown field "${field}": one of ${INFO_FIELDS.join(', ')}`);
    }
    const { info } = findRunningServe(opts.dataDir);
    const dataDir = resolveDataDir(opts.dataDir);
    const all: ServerInfo & { dataDir: string } = { ...info, dataDir };
    if (field !== undefined) {
      const value = all[field as InfoField];
      io.stdout(opts.json ? `${JSON.stringify(value)}\n` : `${value ?? ''}\n`);
      return EXIT.ok;
    }
    if (opts.json) {
      io.stdout(`${JSON.stringify(all)}\n`);
      return EXIT.ok;
    }
    io.stdout(
      [
        `Hookbench ${info.version} runs as pid ${info.pid}`,
        `  data dir:      ${dataDir}`,
        `  url:           ${info.url}`,
        `  UI:            ${info.uiUrl}`,
        `  token:         ${info.token}`,
        `  mock receiver: ${info.receiverUrl ?? '(not listening)'}  HTTPS: ${info.receiverTlsUrl ?? '(not listening)'}`,
        '',
      ].join('\n'),
    );
    return EXIT.ok;
  });
}
