/** What an import's toast says became of the copies (the CLI says it per message). */
import { formatCount, plural } from '../../lib/format';

/**
 * Sent now, held by the pause or by a destination that is off, or routed nowhere (filtered: no destination
 * here takes them).
 */
export function whatHappens(imported: readonly { status: string; deliveries: number; held?: readonly string[] }[], paused: boolean): string {
  const deliveries = imported.reduce((sum, m) => sum + m.deliveries, 0);
  const filtered = imported.filter((m) => m.status === 'filtered').length;
  const them = (n: number) => (n === 1 ? 'it' : 'them');
  if (deliveries === 0) return `${imported.length === 1 ? 'it went' : 'they went'} nowhere: filtered, no destination here takes ${them(imported.length)}`;
  const nowhere = filtered === 0 ? '' : `; ${formatCount(filtered)} went nowhere (filtered: no destination here takes ${them(filtered)})`;
  // A destination that is off holds its copies: said here, or they would look stuck in History.
  const heldNames = [...new Set(imported.flatMap((m) => m.held ?? []))];
  const heldCount = imported.reduce((sum, m) => sum + (m.held?.length ?? 0), 0);
  const one = heldNames.length === 1;
  const held =
    heldCount === 0
      ? ''
      : `${heldNames.map((d) => `'${d}'`).join(', ')} ${one ? 'is' : 'are'} disabled: ${plural(heldCount, 'delivery', 'deliveries')} to ${one ? 'it' : 'them'} ${heldCount === 1 ? 'waits' : 'wait'} until ${one ? 'it is' : 'they are'} enabled`;
  const sending = deliveries - heldCount;
  if (sending === 0) return `${held}${nowhere}`;
  const rest = held ? `; ${held}` : '';
  if (paused) return `forwarding is paused: ${plural(sending, 'delivery', 'deliveries')} ${sending === 1 ? 'waits' : 'wait'}, queued, until you resume it${rest}${nowhere}`;
  return `${plural(sending, 'delivery', 'deliveries')} ${sending === 1 ? 'is' : 'are'} being sent now${rest}${nowhere}`;
}
