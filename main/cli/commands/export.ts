/**
 * `hookbench export`: the history's messages with their deliveries and attempts written to a file (or
 * stdout) in the formats of the UI's Export (typed API `exportMessages`): JSON lines, HAR 1.2 or a cURL
 * script, with the filters the history offers. The file holds the export's own text, never an API answer.
 */
import type { ExportFormat, ExportMessagesOutput } from '../../contract/api.js';
import { EXPORT_LIMIT, EXPORT_TEXT_BYTES } from '../../contract/commands.js';
import { checkOutputTarget, FileWriteError, writeOutputFile } from '../../platform/outputFile.js';
import type { MessageType } from '../../contract/message/messageShapes.js';
import type { DeliveryStatus } from '../../contract/deliveries.js';
import type { Destination } from '../../contract/destinations.js';
import type { MessageFilter, MessageStatus } from '../../contract/messages.js';
import type { Source } from '../../contract/sources.js';
import { EXIT, runCommand, UsageError, writeErrorWords, type CliIO } from '../io.js';
import { listAll } from '../remote.js';
import { parseMessageId } from './show.js';
import { openWorkbench, type Workbench } from '../workbench.js';

export interface ExportOptions {
  format?: ExportFormat | undefined;
  out?: string | undefined;
  force?: boolean | undefined;
  includeSecrets?: boolean | undefined;
  id?: string[] | undefined;
  status?: MessageStatus | undefined;
  type?: MessageType | undefined;
  source?: string | undefined;
  destination?: string | undefined;
  user?: string | undefined;
  event?: string | undefined;
  search?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  delivery?: DeliveryStatus | undefined;
  deliverySince?: string | undefined;
  dataDir?: string | undefined;
}

export const FORMAT_WORDS: Record<ExportFormat, string> = { json: 'JSON lines', har: 'HAR 1.2', curl: 'a cURL script' };

/** The format a file name asks for by its extension (`failed.jsonl`), when the command does not say. */
export function formatOfFile(path: string): ExportFormat | null {
  const ext = /\.([a-z]+)$/i.exec(path)?.[1]?.toLowerCase();
  return ext === 'har' ? 'har' : ext === 'jsonl' || ext === 'ndjson' ? 'json' : ext === 'sh' ? 'curl' : null;
}

/** `2026-11-26T10:00:00Z` (any ISO 8601 date-time with a zone, or a date alone, read as UTC) or ms since the epoch. */
export function parseTimeOption(value: string, flag: string): number {
  const text = value.trim();
  if (/^\d{1,16}$/.test(text)) return Number(text);
  const iso = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2}))?$/i.test(text);
  const ms = iso ? Date.parse(text) : NaN;
  if (!Number.isFinite(ms)) {
    throw new UsageError(`${flag}: expected an ISO 8601 time with its zone (2026-11-26T10:00:00Z), a date (2026-11-26, UTC) or ms since the epoch, got ${JSON.stringify(value)}`);
  }
  return ms;
}

export async function runExport(options: ExportOptions, io: CliIO): Promise<number> {
  let wb: Workbench | null = null;
  return runCommand(io, 'export', async () => {
    try {
      const out = options.out === undefined || options.out === '-' ? null : options.out;
      const format = options.format ?? (out ? formatOfFile(out) : null) ?? 'har';
      if (out && outputExists(out) && !options.force) throw new UsageError(`--out: ${out} already exists; give --force to replace it (or another file name)`);
      if (options.id?.length && hasFilter(options)) throw new UsageError('give --id or filters (--status, --type, --source, ...), not both');
      const ids = options.id?.map((v) => {
        try {
          return parseMessageId(v);
        } catch {
          throw new UsageError(`--id: expected a message's number (#42 or 42), got ${JSON.stringify(v)}`);
        }
      });
      const times = {
        from: options.from === undefined ? undefined : parseTimeOption(options.from, '--from'),
        to: options.to === undefined ? undefined : parseTimeOption(options.to, '--to'),
        deliverySince: options.deliverySince === undefined ? undefined : parseTimeOption(options.deliverySince, '--delivery-since'),
      };
      if (times.deliverySince !== undefined && options.delivery === undefined) throw new UsageError('--delivery-since: give --delivery too (the delivery status it is about, e.g. failed)');

      wb = await openWorkbench(options.dataDir);
      const filter: MessageFilter = {
        ...(options.status ? { status: options.status } : {}),
        ...(options.type ? { type: options.type } : {}),
        ...(options.source !== undefined ? { sourceId: await idOf(wb, 'source', options.source) } : {}),
        ...(options.destination !== undefined ? { destinationId: await idOf(wb, 'destination', options.destination) } : {}),
        ...(options.user !== undefined ? { userId: options.user } : {}),
        ...(options.event !== undefined ? { event: options.event } : {}),
        ...(options.search !== undefined ? { text: options.search } : {}),
        ...(times.from !== undefined ? { from: times.from } : {}),
        ...(times.to !== undefined ? { to: times.to } : {}),
        ...(options.delivery ? { delivery: options.delivery } : {}),
        ...(times.deliverySince !== undefined ? { deliverySince: times.deliverySince } : {}),
      };
      const answer = await wb.call<ExportMessagesOutput>('exportMessages', { ...(ids?.length ? { ids } : { filter }), format, includeSecrets: options.includeSecrets ?? false });
      if (!answer.ok) {
        io.stderr(`hookbench export: ${flagWords(answer.error.message)}\n`);
        return answer.error.code === 'not_found' || answer.error.code === 'invalid_input' ? EXIT.usage : EXIT.failed;
      }
      const { text, messages, notSent, truncated } = answer.value;
      if (messages === 0 && notSent > 0) {
        // Bounded by count, they are the newest of more that matched (older ones may have been sent).
        const which = truncated ? `newest ${notSent.toLocaleString('en-US')}` : notSent.toLocaleString('en-US');
        io.stderr(`hookbench export: the ${which} matching message${notSent === 1 ? ' was' : 's were'} never sent, and ${FORMAT_WORDS[format]} lists attempts; nothing written (--format json holds every message${truncated ? '; narrow the filters, e.g. --delivery, --from, --to' : ''})\n`);
        return EXIT.failed;
      }
      if (messages === 0) {
        io.stderr(`hookbench export: no message in ${wb.where} matches these filters; nothing written\n`);
        return EXIT.failed;
      }
      if (out) {
        try {
          writeOutputFile(out, text, options.includeSecrets ? 0o600 : 0o644);
        } catch (e) {
          if (!(e instanceof FileWriteError)) throw e;
          io.stderr(`hookbench export: --out: ${e.message}; nothing was written\n`);
          return EXIT.failed;
        }
      } else {
        io.stdout(text);
        // Only once the bytes are out does the summary say they were exported.
        try {
          await io.flushStdout?.();
        } catch (e) {
          io.stderr(`hookbench export: cannot write to stdout (${writeErrorWords(e)}); the export is incomplete\n`);
          return EXIT.failed;
        }
      }
      const what = `${messages} message${messages === 1 ? '' : 's'} as ${FORMAT_WORDS[format]}${options.includeSecrets ? ' (with secrets)' : ', secrets redacted'}`;
      io.stderr(`exported ${what}${out ? ` to ${out}` : ''}${notSent ? `; ${notSent} never sent ${notSent === 1 ? 'is' : 'are'} not in it (${FORMAT_WORDS[format]} lists attempts)` : ''}\n`);
      if (truncated) {
        const bound = answer.value.truncatedBy === 'size' ? `the newest that fit in ${EXPORT_TEXT_BYTES.toLocaleString('en-US')} bytes (what one import takes)` : `the newest ${EXPORT_LIMIT.toLocaleString('en-US')}`;
        io.stderr(`more messages matched: only ${bound} are in it (narrow the filters, e.g. --from, --to)\n`);
      }
      return EXIT.ok;
    } finally {
      await wb?.close();
    }
  });
}

function hasFilter(o: ExportOptions): boolean {
  return [o.status, o.type, o.source, o.destination, o.user, o.event, o.search, o.from, o.to, o.delivery, o.deliverySince].some((v) => v !== undefined);
}

/** A source's or destination's id from its name (or id), as the history filters by id. */
async function idOf(wb: Workbench, kind: 'source' | 'destination', ref: string): Promise<string> {
  if (ref.trim() === '') throw new UsageError(`--${kind}: must not be empty`);
  const listed = await listAll<Source | Destination>((input) => wb.call(kind === 'source' ? 'listSources' : 'listDestinations', input));
  if (!listed.ok) throw new UsageError(listed.error.message);
  const found = listed.value.find((x) => x.name === ref) ?? listed.value.find((x) => x.id === ref);
  if (!found) {
    const names = listed.value.map((x) => JSON.stringify(x.name));
    // In the words the API gives a source or destination that matches none (Registry's noSuch), and where it looked.
    throw new UsageError(`--${kind}: no ${kind} named or with id ${JSON.stringify(ref)} in ${wb.where}${names.length ? `; the ${kind}s are ${names.join(', ')}` : `; there is no ${kind} yet`}`);
  }
  return found.id;
}

/** The API's field names (`filter.userId`, `ids[2]`) as the flags that set them. */
function flagWords(message: string): string {
  return message
    .replace(/^filter\.userId/, '--user')
    .replace(/^filter\.text/, '--search')
    .replace(/^filter\.event/, '--event')
    .replace(/^filter\.deliverySince/, '--delivery-since')
    .replace(/^filter\.(from|to)/, '--$1')
    .replace(/^--to: must be after from/, '--to: must be after --from')
    .replace(/^ids\[\d+\]/, '--id');
}

/**
 * Whether --out names something already; refused at once when it is not a regular file (a device, a FIFO, a link)
 * or its folder is missing or not writable: else a mistyped folder was named only after the export ran, with the
 * exit status of a run that matched nothing (1), or not at all when nothing matched.
 */
function outputExists(path: string): boolean {
  try {
    return checkOutputTarget(path).exists;
  } catch (e) {
    if (e instanceof FileWriteError) throw new UsageError(`--out: ${e.message}`);
    throw e;
  }
}
