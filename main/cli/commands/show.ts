/**
 * `hookbench show <id> [--data-dir DIR] [--json | --body]`: one message with its deliveries, attempts and the
 * exact body bytes. Asked of the running serve (typed API `getMessage`); when none runs on the data dir, the
 * data dir is opened directly (nothing is forwarded from here).
 */
import type { AttemptRecord, DeliveryRecord } from '../../contract/deliveries.js';
import type { MessageExplanation } from '../../contract/diagnostics.js';
import { noSourceText, type MessageDetail } from '../../contract/messages.js';
import type { Source } from '../../contract/sources.js';
import { pastWindowWords, recordTriesWords, severalWebhooks } from '../../contract/message/deliveryWords.js';
import type { Result } from '../../contract/result.js';
import { isoFromMs } from '../../contract/message/timestamp.js';
import { maskMessageDetail } from '../../domain/secrets.js';
import { EXIT, formatDuration, runCommand, UsageError, type CliIO } from '../io.js';
import { callApi, findLiveServe, listAll, sourceNamesOf } from '../remote.js';
import { openDataDirCore } from '../workbench.js';

export interface ShowOptions {
  dataDir?: string | undefined;
  json?: boolean | undefined;
  /** Only the body's exact bytes, nothing else (for `hookbench verify --body @-`, files, diffs). */
  body?: boolean | undefined;
}

const PREVIEW_CHARS = 300;

/** `42` or `#42`: the message's number, as tail, send and delete-user print it. */
export function parseMessageId(value: string): number {
  const m = /^#?(\d{1,15})$/.exec(value.trim());
  if (!m && /^#?\d{16,}$/.test(value.trim())) throw new UsageError(`<id>: ${value.trim()} is too large for a message's number (at most 15 digits)`);
  if (!m) throw new UsageError(`<id>: expected the message's number, as tail, send and delete-user print it (#42 or 42), got ${JSON.stringify(value)}`);
  return Number(m[1]);
}

export async function runShow(idArg: string, options: ShowOptions, io: CliIO): Promise<number> {
  return runCommand(io, 'show', async () => {
    if (options.json && options.body) throw new UsageError('give --json or --body, not both');
    const id = parseMessageId(idArg);
    const found = await fetchMessage(id, options.dataDir);
    if (!found.detail.ok) {
      // The API names its field (`id: must be more than 0 (got 0)`); here the user typed the <id> argument.
      io.stderr(`hookbench show: ${found.detail.error.code === 'not_found' ? `no message #${id} in ${found.where}` : found.detail.error.message.replace(/^id: /, '<id>: ')}\n`);
      return found.detail.error.code === 'not_found' ? EXIT.failed : EXIT.usage;
    }
    const detail = found.detail.value;
    if (options.body) io.stdout(detail.message.body);
    else if (options.json) io.stdout(`${JSON.stringify(detail)}\n`);
    else io.stdout(describe(detail, found.sourceName, found.held));
    return EXIT.ok;
  });
}

/** Why a waiting delivery waits, by destination id, when explainMessage says it is held (a disabled destination). */
type Held = ReadonlyMap<string, string>;

/** Only a delivery that waits can be held: asked of explainMessage only then. */
const waits = (detail: Result<MessageDetail>): boolean => detail.ok && detail.value.deliveries.some((d) => d.status === 'queued' || d.status === 'retrying');

function heldBy(explained: Result<MessageExplanation>): Held {
  if (!explained.ok) return new Map();
  return new Map(
    explained.value.destinations.flatMap((d) => {
      const held = d.outcome === 'waiting' ? d.reasons.find((r) => r.rule === 'destination.enabled' && r.state === 'problem') : undefined;
      return held ? [[d.destinationId, held.text] as const] : [];
    }),
  );
}

async function fetchMessage(id: number, dataDirFlag: string | undefined): Promise<{ detail: Result<MessageDetail>; sourceName: (id: string) => string; where: string; held: Held }> {
  const live = findLiveServe(dataDirFlag);
  if (live) {
    const detail = await callApi<MessageDetail>(live.info, 'getMessage', { id });
    const held = waits(detail) ? heldBy(await callApi<MessageExplanation>(live.info, 'explainMessage', { id })) : new Map<string, string>();
    return { detail, sourceName: detail.ok ? await sourceNamesOf(live.info) : (s) => s, where: `the serve at ${live.info.url}`, held };
  }
  // No serve: read the data dir itself, if it is one.
  const { core, dataDir } = await openDataDirCore(dataDirFlag);
  try {
    // Masked as the serve's getMessage answers it (docs/behaviour.md §9): the same output either way.
    const read = core.getMessage({ id });
    const detail = read.ok ? { ok: true as const, value: maskMessageDetail(read.value) } : read;
    // Lists take a cursor and answer pages once they page: the cast compiles before and after.
    const sources = await listAll<Source>(() => core.listSources());
    const byId = new Map(sources.ok ? sources.value.map((s) => [s.id, s.name] as const) : []);
    return { detail, sourceName: (s) => byId.get(s) ?? s, where: dataDir, held: waits(read) ? heldBy(core.explainMessage({ id })) : new Map() };
  } finally {
    await core.close();
  }
}

function describe(detail: MessageDetail, sourceName: (id: string) => string, held: Held): string {
  const { message: m, deliveries, attempts } = detail;
  const bytes = Buffer.byteLength(m.body, 'utf8');
  const out: string[] = [];
  const what = m.type === 'track' && m.event ? `${m.type} ${JSON.stringify(m.event)}` : m.type;
  out.push(`message #${m.id}  ${what}  ${m.status}${m.statusReason ? `: ${m.statusReason}` : ''}`);
  out.push(`  messageId:  ${m.messageId}`);
  out.push(`  source:     ${m.sourceId === null ? noSourceText(m.origin) : sourceName(m.sourceId)}`);
  if (m.userId !== null) out.push(`  user:       ${m.userId}`);
  out.push(`  received:   ${isoFromMs(m.receivedAt)} (engine time)`);
  if (m.replayOf !== null) out.push(`  replay of:  #${m.replayOf}`);
  out.push(`body (${bytes} bytes, exactly as sent and signed; --body prints them alone):`);
  out.push(m.body);
  if (deliveries.length === 0) out.push('', `not sent to any destination${m.statusReason ? ` (${m.statusReason})` : ''}`);
  for (const d of deliveries) {
    const why = held.get(d.destinationId);
    const own = attempts.filter((a) => a.deliveryId === d.id).sort((a, b) => a.attemptNumber - b.attemptNumber || a.webhookIndex - b.webhookIndex);
    const several = own.some((a) => a.webhookIndex > 0);
    out.push('', `→ ${d.destinationName}: ${deliveryState(d, own)}${why ? `; held: ${why}` : ''}`);
    for (const a of own) out.push(...attemptLines(a, several));
  }
  return `${out.join('\n')}\n`;
}

function deliveryState(d: DeliveryRecord, own: AttemptRecord[]): string {
  const tries = recordTriesWords(d, own);
  switch (d.status) {
    case 'delivered':
      return `delivered after ${tries}`;
    case 'failed':
    case 'cancelled': {
      const why = d.status === 'failed' ? pastWindowWords(d, severalWebhooks(own)) : null;
      return `${d.status}: ${d.reason ?? 'no reason given'} after ${tries}${why ? `; ${why}` : ''}`;
    }
    default:
      return `${d.status} after ${tries}${d.nextAttemptAt !== null ? `; next attempt at ${isoFromMs(d.nextAttemptAt)}${d.pendingUrls.length ? ` to ${d.pendingUrls.join(', ')}` : ''}` : ''}`;
  }
}

function attemptLines(a: AttemptRecord, several: boolean): string[] {
  const which = several ? ` [webhook ${a.webhookIndex + 1}]` : '';
  const status = a.statusCode === null ? 'no response' : `HTTP ${a.statusCode}`;
  const why = a.outcome !== 'success' && a.error && a.error !== status ? `  (${a.error})` : '';
  const lines = [`  attempt ${a.attemptNumber}${which}  ${isoFromMs(a.startedAt)}  ${a.url}  ${a.outcome}  ${status}  ${formatDuration(a.durationMs)}${why}`];
  const sent = Object.entries(a.requestHeaders).map(([k, v]) => `${k}: ${v}`);
  if (sent.length) lines.push(`      request headers:  ${sent.join('  ')}`);
  // What the endpoint answered matters as much as what was sent (Retry-After, a redirect's Location, a content type).
  const answered = Object.entries(a.responseHeaders ?? {}).map(([k, v]) => `${k}: ${v}`);
  if (answered.length) lines.push(`      response headers: ${answered.join('  ')}`);
  if (a.responseHeaders || a.responseBody) {
    const body = a.responseBody ?? '';
    const shown = body.length > PREVIEW_CHARS || a.responseTruncated ? `${body.slice(0, PREVIEW_CHARS)}…` : body;
    lines.push(`      response body:    ${shown === '' ? '(empty)' : shown.replace(/\r/g, '\\r').replace(/\n/g, '\\n')}`);
  }
  return lines;
}
