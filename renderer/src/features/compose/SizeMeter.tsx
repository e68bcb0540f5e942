import { LIMITS } from '../../../../main/contract/message/messageShapes';
import { formatBytes } from '../../lib/format';

/** The call's size against the 32 KiB limit: the call as received, not the body sent (the preview says that one's size). */
export function SizeMeter({ bytes }: { bytes: number }) {
  const share = bytes / LIMITS.messageBytes;
  const tone = share > 1 ? 'bg-err' : share > 0.8 ? 'bg-warn' : 'bg-accent';
  return (
    <div className="flex items-center gap-2" title="The call's JSON, as the ingestion API receives it, must stay within 32 KiB (32,768 bytes). The body sent to webhooks is larger: it adds messageId, timestamp and version (its size is in the preview).">
      <div role="meter" aria-label="Size" aria-valuemin={0} aria-valuemax={LIMITS.messageBytes} aria-valuenow={bytes} aria-valuetext={`${formatBytes(bytes)} of 32 KiB`} className="h-1.5 w-24 overflow-hidden rounded-full bg-panel-2">
        <div className={`h-full ${tone}`} style={{ width: `${Math.min(100, Math.max(2, share * 100))}%` }} />
      </div>
      <span className={`tabular text-xs ${share > 1 ? 'text-err' : 'text-muted'}`}>call {formatBytes(bytes)} / 32 KiB</span>
    </div>
  );
}
