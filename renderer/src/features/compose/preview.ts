/**
 * What Send would do with the current form, computed here: the exact body bytes (the engine's own builder,
 * main/contract/message/messageBody.ts) and, per destination, whether it would receive the call and why not
 * (docs/behaviour.md §6, with main/contract/message/routing.ts's checks). The engine fills in messageId and timestamp
 * when the call arrives, so those two values differ in the bytes actually sent.
 *
 * Imports say `.js`: test/integration/ingestion/composePreview.test.ts checks this file against the engine under NodeNext.
 */
import { buildMessageBody } from '../../../../main/contract/message/messageBody.js';
import type { MessageType } from '../../../../main/contract/message/messageShapes.js';
import type { Destination } from '../../../../main/contract/destinations.js';
import type { Source } from '../../../../main/contract/sources.js';
import type { ApiError } from '../../../../main/contract/result.js';
import { eventFilterAllows, integrationsAllow } from '../../../../main/contract/message/routing.js';

/** A UUID version 7 like the engine's (main/ingestion/messageIds.ts): 48 bits of time, then random. */
export function previewMessageId(nowMs: number): string {
  const time = Math.max(0, Math.floor(nowMs)).toString(16).padStart(12, '0').slice(-12);
  const random = globalThis.crypto?.randomUUID?.() ?? '00000000-0000-4000-8000-000000000000'.replace(/0/g, () => Math.floor(Math.random() * 16).toString(16));
  return `${time.slice(0, 8)}-${time.slice(8)}-7${random.slice(15)}`;
}

export type BodyPreview = { ok: true; json: string; event: string | null; filledMessageId: boolean; filledTimestamp: boolean } | { ok: false; error: ApiError };

/** The body the engine would build for this call, with a messageId and timestamp made as it would make them. */
export function previewBody(type: MessageType, call: Record<string, unknown>, engineNowMs: number): BodyPreview {
  const built = buildMessageBody(type, call, { receivedAt: engineNowMs, newMessageId: () => previewMessageId(engineNowMs), strict: true });
  if (!built.ok) return built;
  const ts = call['timestamp'];
  return {
    ok: true,
    json: built.value.json,
    event: built.value.event,
    filledMessageId: typeof call['messageId'] !== 'string' || call['messageId'] === '',
    filledTimestamp: ts === undefined || ts === null || ts === '',
  };
}

export interface RoutePreview {
  destination: Destination;
  receives: boolean;
  /** Receives, but the delivery waits: the destination is disabled (ticked explicitly). */
  held: boolean;
  /** Why not, in the engine's words (or why held). */
  reason: string | null;
}

/**
 * Every destination, in the catalog's order, with what routing would do (docs/behaviour.md §6): ticked
 * destinations are the candidates when any is ticked, else the enabled ones connected to the source, else
 * every enabled one; then integrations, then event filters (track only).
 */
export function previewRoutes(input: { type: MessageType; event: string | null; integrations: unknown; source: Source | null; chosen: readonly string[] }, destinations: readonly Destination[]): RoutePreview[] {
  const { type, event, integrations, source, chosen } = input;
  return destinations.map((destination) => {
    const not = (reason: string): RoutePreview => ({ destination, receives: false, held: false, reason });
    if (chosen.length > 0) {
      if (!chosen.includes(destination.id)) return not('not ticked');
    } else if (!destination.enabled) {
      return not('disabled');
    } else if (source && !destination.sourceIds.includes(source.id)) {
      return not(`not connected to source "${source.name}"`);
    }
    const refused = integrationsAllow(integrations, destination.name) ?? eventFilterAllows(destination, type, event);
    if (refused) return not(refused);
    if (!destination.enabled) return { destination, receives: true, held: true, reason: 'disabled: its delivery waits until it is enabled' };
    if (destination.webhooks.length === 0) return { destination, receives: true, held: false, reason: 'no webhook: nothing will be sent' };
    return { destination, receives: true, held: false, reason: null };
  });
}
