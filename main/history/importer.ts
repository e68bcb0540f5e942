/**
 * importMessages: an export read back (main/domain/importParse.ts) and sent again through intake, in one
 * transaction: one bad entry refuses the whole import, naming where it is in the file. Each message goes
 * through the source given, else its original source, else its original destinations, where they exist
 * here; a message with none of those refuses the import (choose a source). The copies keep the originals'
 * order, whatever order the file lists them in, and their bodies what the workbench filled into the originals'
 * (the time of receipt as `timestamp`, `context.ip`, a made messageId when kept). The calls were accepted once:
 * checks added since (a call's `sentAt`, a non-object `integrations`) do not refuse them (acceptedBefore).
 */
import type { ImportMessagesInput, ImportMessagesOutput } from '../contract/importMessages.js';
import { err, ok, type Result } from '../contract/result.js';
import type { SendMessageInput } from '../contract/schemas.js';
import { parseExport, type FilledByWorkbench, type ImportedCall } from '../domain/importParse.js';
import type { Intake } from '../ingestion/intake.js';
import type { Registry } from '../registry/registry.js';

const BATCH = 'imported';

/**
 * The calls in the order their originals arrived (by original id), so the copies arrive in that order too:
 * an export by filter lists the newest first. A file without ids for every call keeps its own order.
 */
function inOriginalOrder(calls: readonly ImportedCall[]): ImportedCall[] {
  if (!calls.every((c) => c.originalId !== null)) return [...calls];
  return [...calls].sort((a, b) => a.originalId! - b.originalId!);
}

export function importMessages(input: ImportMessagesInput, o: { intake: Pick<Intake, 'acceptMessages'>; registry: Pick<Registry, 'findSource' | 'noSuchSource' | 'findDestination'> }): Result<ImportMessagesOutput> {
  const parsed = parseExport(input.text);
  if (!parsed.ok) return parsed;
  const calls = inOriginalOrder(parsed.value.calls);
  let source: string | undefined;
  if (input.source !== undefined) {
    const found = o.registry.findSource(input.source);
    if (!found) return err(o.registry.noSuchSource('source', input.source));
    source = found.id;
  }
  const sends: SendMessageInput[] = [];
  // What the originals' bodies say that their calls did not (their time, address and a made messageId).
  const filled: FilledByWorkbench[] = [];
  for (const c of calls) {
    const { messageId, ...rest } = c.call;
    const call = input.keepMessageIds && messageId !== undefined ? { ...rest, messageId } : rest;
    const { messageId: madeId, ...times } = c.filled;
    filled.push(input.keepMessageIds && messageId === undefined && madeId !== undefined ? { ...times, messageId: madeId } : times);
    if (source) {
      sends.push({ type: c.type, call, source });
      continue;
    }
    const original = c.sourceId ? o.registry.findSource(c.sourceId) : null;
    if (original) {
      sends.push({ type: c.type, call, source: original.id });
      continue;
    }
    const destinations = [...new Set(c.destinations.map((d) => (d.id && o.registry.findDestination(d.id)) || (d.name && o.registry.findDestination(d.name)) || null).filter((d) => d !== null).map((d) => d.id))];
    if (destinations.length === 0) {
      const was = [c.sourceId ? `source ${c.sourceId}` : null, ...c.destinations.map((d) => `destination ${d.name ?? d.id}`)].filter(Boolean);
      return err({
        code: 'not_found',
        field: 'source',
        message: `text: ${c.label}: ${was.length ? `its ${was.join(', ')} ${was.length === 1 ? 'does' : 'do'} not exist in this workbench` : 'the export does not say where it went'}; choose a source to route the import through`,
      });
    }
    sends.push({ type: c.type, call, destinations });
  }
  // Kept messageIds are sent again on purpose (the receivers that de-duplicate drop them), not SDK retries to drop here.
  const accepted = o.intake.acceptMessages(sends, BATCH, { recordsTraits: true, resend: input.keepMessageIds === true, filled, acceptedBefore: true });
  if (!accepted.ok) {
    // `imported[3].call.userId` → `text: line 4: call.userId`
    const e = accepted.error;
    const m = e.field ? new RegExp(`^${BATCH}\\[(\\d+)\\]\\.?(.*)$`).exec(e.field) : null;
    if (!m) return accepted;
    const label = calls[Number(m[1])]!.label;
    const inner = m[2] ?? '';
    const message = e.message.replace(`${BATCH}[${m[1]}]${inner ? `.${inner}` : ''}`, `${label}${inner ? `: ${inner}` : ''}`);
    return err({ ...e, field: 'text', message: `text: ${message}` });
  }
  return ok({
    format: parsed.value.format,
    imported: accepted.value.map((sent, i) => ({
      id: sent.message.id,
      importedFrom: calls[i]!.originalId,
      status: sent.message.status,
      deliveries: sent.deliveries.length,
      // An original destination may be one that is off (the one `hookbench send` keeps is, between sends): said, not left to look stuck.
      held: sent.deliveries.flatMap((d) => {
        const destination = o.registry.findDestination(d.destinationId);
        return destination && !destination.enabled ? [destination.name] : [];
      }),
    })),
  });
}
