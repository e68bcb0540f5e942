import { ShieldAlert, ShieldX } from 'lucide-react';
import type { SignatureVerdict } from '../../../main/contract/receiver/receiver';
import { TONE_CLASS } from '../lib/status';

/**
 * A message row's mark when the mock receiver refused the signature of the newest request the message
 * sent it (`invalid` or `missing`): a green "delivered" from the receiver's 200 is then only half true.
 * Nothing when the verdict is valid or there is none. `compact`: the icon alone (list rows).
 */
/** `wordsClassName`: when the words show (a container query), for a row that is sometimes too narrow for them. */
export function ReceiverVerdictMarker({ verdict, compact = false, wordsClassName }: { verdict?: SignatureVerdict | undefined; compact?: boolean; wordsClassName?: string }) {
  if (verdict !== 'invalid' && verdict !== 'missing') return null;
  const label = `Receiver: signature ${verdict}`;
  const Icon = verdict === 'invalid' ? ShieldX : ShieldAlert;
  return (
    <span
      role="img"
      aria-label={label}
      title={`${label}: the mock receiver's check of X-Signature failed (open the message's attempt for why)`}
      className={`inline-flex h-4 shrink-0 items-center gap-0.5 rounded px-1 font-mono text-[10px] font-medium ${TONE_CLASS[verdict === 'invalid' ? 'err' : 'warn'].soft}`}
    >
      <Icon aria-hidden className="size-3" />
      {/* A row gives the event name the room; the icon and its tooltip say it there. */}
      {!compact && (wordsClassName ? <span className={wordsClassName}>sig {verdict}</span> : `sig ${verdict}`)}
    </span>
  );
}
