import { noSourceText, type MessageDetail } from '../../../../main/contract/messages';
import { formatTimestamp } from '../../lib/format';
import { sourceName, useCatalog } from '../../stores/catalog';
import { useRouter } from '../../stores/router';
import { CopyButton } from '../../ui/CopyButton';
import { VisibleText } from '../../ui/VisibleText';
import { sizeFact } from './bodyLabel';

/** Who, when, from where: the facts of one message, as a compact definition list. */
export function MessageFacts({ detail }: { detail: MessageDetail }) {
  const sources = useCatalog((s) => s.sources);
  const navigate = useRouter((s) => s.navigate);
  const m = detail.message;
  const anonymousId = typeof m.call['anonymousId'] === 'string' ? m.call['anonymousId'] : null;
  // IDs are read whole (they are searched and compared with a receiver's logs), so a long one wraps anywhere
  // rather than being cut or widening the pane.
  const facts: [string, React.ReactNode][] = [
    [
      'messageId',
      <span className="flex min-w-0 items-center gap-1">
        <span className="min-w-0 font-mono wrap-anywhere">{m.messageId}</span>
        <CopyButton text={m.messageId} label="Copy messageId" showLabel={false} />
      </span>,
    ],
    ['Received', <span className="tabular font-mono">{formatTimestamp(m.receivedAt)}</span>],
    ['User ID', m.userId ? <VisibleText text={m.userId} className="min-w-0 font-mono wrap-anywhere" /> : <span className="text-faint">—</span>],
    ...(anonymousId ? [['Anonymous ID', <VisibleText text={anonymousId} className="min-w-0 font-mono wrap-anywhere" />] as [string, React.ReactNode]] : []),
    ['Source', m.sourceId ? <bdi className="min-w-0 wrap-anywhere">{sourceName(sources, m.sourceId)}</bdi> : <span className="text-faint">{noSourceText(m.origin)}</span>],
    // The 32 KiB limit is the call's as received (Compose's meter measures the same); the body is what is signed and sent.
    ['Size', sizeFact(detail)],
    ...(m.replayOf !== null
      ? [
          [
            'Replay of',
            <button type="button" className="text-accent hover:underline" onClick={() => navigate({ view: 'live', messageId: m.replayOf })}>
              message #{m.replayOf}
            </button>,
          ] as [string, React.ReactNode],
        ]
      : []),
    ...(m.statusReason ? [['Reason', <span className="text-muted">{m.statusReason}</span>] as [string, React.ReactNode]] : []),
  ];
  return (
    <dl className="grid grid-cols-[7rem_minmax(0,1fr)] gap-x-3 gap-y-1 rounded-lg border border-line bg-panel px-3 py-2 text-xs">
      {facts.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="flex min-h-6 items-center text-muted">{label}</dt>
          <dd className="flex min-h-6 min-w-0 items-center">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
