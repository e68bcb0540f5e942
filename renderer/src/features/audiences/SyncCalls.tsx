import type { JsonValue, PendingChange, SyncCall } from '../../../../main/contract/audiences';
import { useRouter } from '../../stores/router';

/** joined / left for an audience; set / changed / removed for a computed trait. */
export function changeWord(kind: 'audience' | 'computed_trait', c: PendingChange): string {
  if (kind === 'audience') return c.value === true ? 'joined' : 'left';
  return c.change === 'added' ? 'set' : c.change;
}

const TONE: Record<string, string> = {
  joined: 'bg-ok-soft text-ok',
  set: 'bg-ok-soft text-ok',
  changed: 'bg-info-soft text-info',
  left: 'bg-warn-soft text-warn',
  removed: 'bg-warn-soft text-warn',
};

const show = (v: JsonValue) => JSON.stringify(v);

/**
 * Identify calls, one a row: the change, the user, the exact traits sent, and (once sent) the message in
 * Live. Used for a sync's calls and for what a sync now would send.
 */
export function SyncCalls({ label, kind, traitKey, calls }: { label: string; kind: 'audience' | 'computed_trait'; traitKey: string; calls: (PendingChange | SyncCall)[] }) {
  const navigate = useRouter((s) => s.navigate);
  return (
    <ul aria-label={label} className="flex flex-col divide-y divide-line/60 rounded-md border border-line">
      {calls.map((c) => {
        const word = changeWord(kind, c);
        const messageId = 'messageId' in c ? c.messageId : null;
        return (
          <li key={`${c.userId}:${messageId ?? ''}`} aria-label={`${word} ${c.userId}`} className="flex min-w-0 items-center gap-2 px-2 py-1 text-xs">
            <span className={`w-14 shrink-0 rounded px-1.5 text-center font-mono text-[11px] font-medium ${TONE[word] ?? ''}`}>{word}</span>
            <span className="w-24 shrink-0 truncate font-mono" title={c.userId}>
              {c.userId}
            </span>
            <code className="min-w-0 flex-1 truncate font-mono text-muted" title={`identify {"userId": ${show(c.userId)}, "traits": {${show(traitKey)}: ${show(c.value)}}}`}>
              identify traits {'{'}
              {traitKey}: {show(c.value)}
              {'}'}
            </code>
            {messageId !== null && (
              <a href={`#/live/${messageId}`} onClick={(e) => (e.preventDefault(), navigate({ view: 'live', messageId }))} className="shrink-0 font-mono text-accent hover:underline">
                message #{messageId}
              </a>
            )}
          </li>
        );
      })}
    </ul>
  );
}
