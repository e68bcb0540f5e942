/**
 * Which engine message a capture belongs to, joined by the body's `messageId`: first in the Live list, else
 * through listMessages' body-text filter (there is no messageId filter), checked exactly. Replays that keep
 * the messageId share it: the latest one received before the capture arrived is the one that sent it.
 */
import type { MessageSummary } from '../../../main/contract/models';
import { api } from '../api/instance';
import { useLive } from '../stores/live';

export function pickSender(candidates: readonly Pick<MessageSummary, 'id' | 'messageId' | 'receivedAt'>[], messageId: string, arrivedAt: number): number | null {
  let best: { id: number; receivedAt: number } | null = null;
  for (const m of candidates) {
    if (m.messageId !== messageId || m.receivedAt > arrivedAt) continue;
    if (!best || m.receivedAt > best.receivedAt || (m.receivedAt === best.receivedAt && m.id > best.id)) best = m;
  }
  if (best) return best.id;
  // Clocks reset or a capture older than its message's receipt: any message with that id will do.
  return candidates.find((m) => m.messageId === messageId)?.id ?? null;
}

export async function findSender(messageId: string, arrivedAt: number): Promise<number | null> {
  const live = pickSender(useLive.getState().rows, messageId, arrivedAt);
  if (live !== null) return live;
  // A search over messages not indexed yet comes in short pages (`searching`): follow them to a full page.
  let cursor: string | undefined;
  for (;;) {
    const result = await api().call('listMessages', { text: messageId, limit: 50, ...(cursor ? { cursor } : {}) }, { quiet: true });
    if (!result.ok) return null;
    const found = pickSender(result.value.items, messageId, arrivedAt);
    if (found !== null || !result.value.searching || !result.value.nextCursor) return found;
    cursor = result.value.nextCursor;
  }
}
