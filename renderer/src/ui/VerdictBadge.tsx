import type { SignatureVerdict } from '../../../main/contract/receiver/receiver';
import { TONE_CLASS, type Tone } from '../lib/status';

const VERDICT_TONE: Record<SignatureVerdict, Tone> = { valid: 'ok', invalid: 'err', missing: 'warn' };

/**
 * A signature verdict in the contract's words: `valid`, `invalid`, `missing`; `labelled` prefixes "signature"
 * where the badge stands beside other badges (an attempt's header).
 */
export function VerdictBadge({ verdict, labelled = false }: { verdict: SignatureVerdict; labelled?: boolean }) {
  return (
    <span
      title={labelled ? `The receiver found the X-Signature ${verdict}` : undefined}
      className={`inline-flex h-5 shrink-0 items-center rounded px-1.5 font-mono text-[11px] font-medium ${TONE_CLASS[VERDICT_TONE[verdict]].soft}`}
    >
      {labelled ? `signature ${verdict}` : verdict}
    </span>
  );
}
