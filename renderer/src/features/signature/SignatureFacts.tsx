import { CheckCircle2, TriangleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import type { ReceiverCheck } from '../../../../main/contract/receiver/receiver';
import { formatBytes, formatCount } from '../../lib/format';
import type { AsyncValue } from '../../lib/useAsyncValue';
import { Button } from '../../ui/Button';
import { CodeView } from '../../ui/CodeView';
import { CopyButton } from '../../ui/CopyButton';
import { SecretValue } from '../../ui/SecretValue';

interface FactsProps {
  bytes: Uint8Array;
  body: string;
  destinationId: string;
  maskedSecret: string | null;
  destinationGone: boolean;
  /** undefined: not fetched; null: the destination has no secret now. */
  secret: string | null | undefined;
  computed: AsyncValue<string>;
  sent: string | null;
  wasSent: boolean;
  cryptoMissing: string | null;
  /** What the mock receiver made of this attempt's request, when it went there. */
  receiverCheck?: ReceiverCheck | null;
  onCompute(): void;
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="contents">
      <dt className="flex min-h-6 items-center py-0.5 text-muted">{label}</dt>
      <dd className="flex min-h-6 min-w-0 items-center gap-1.5 py-0.5">{children}</dd>
    </div>
  );
}

/** What was signed, with which secret, what that computes to here, and what was sent. */
export function SignatureFacts({ bytes, body, destinationId, maskedSecret, destinationGone, secret, computed, sent, wasSent, cryptoMissing, receiverCheck = null, onCompute }: FactsProps) {
  const hmac = computed.state === 'done' ? computed.value : null;
  // "Right for the destination's secret" is half the story when the receiver checks with another one.
  const receiverRefused = receiverCheck !== null && (receiverCheck.verdict === 'invalid' || receiverCheck.verdict === 'missing');
  return (
    <div className="flex flex-col">
      <dl className="grid grid-cols-[7rem_minmax(0,1fr)] gap-x-3 gap-y-0.5 px-3 py-2 text-xs">
        <Row label="Signed bytes">
          <span className="shrink-0 whitespace-nowrap text-fg">
            {formatCount(bytes.length)} bytes{bytes.length >= 1024 ? ` (${formatBytes(bytes.length)})` : ''}
          </span>
          <span className="min-w-0 text-faint">{wasSent ? 'the request body as sent' : 'the request body that would have been sent'}</span>
          <span className="ml-auto">
            <CopyButton text={body} label="Copy signed bytes" showLabel={false} />
          </span>
        </Row>
        <Row label="Secret">
          {destinationGone ? (
            <span className="text-faint">the destination was deleted</span>
          ) : (
            <SecretValue kind="destination" id={destinationId} masked={maskedSecret} label="Secret" />
          )}
        </Row>
        <Row label="HMAC-SHA1 here">
          {cryptoMissing ? (
            <span className="text-faint">cannot be computed on this page</span>
          ) : secret === null ? (
            <span className="text-faint">none: the destination has no secret now</span>
          ) : secret === undefined ? (
            destinationGone ? (
              <span className="text-faint">needs the secret</span>
            ) : (
              <Button onClick={onCompute} aria-label="Compute HMAC-SHA1" title="Fetch the destination's secret (it stays masked) and compute the HMAC here">
                Compute
              </Button>
            )
          ) : hmac ? (
            <code aria-label="Computed HMAC-SHA1" className="min-w-0 font-mono break-all text-fg [text-wrap:balance]">
              {hmac}
            </code>
          ) : (
            <span className="text-faint">{computed.state === 'error' ? computed.message : 'computing…'}</span>
          )}
        </Row>
        <Row label={wasSent ? 'X-Signature sent' : 'X-Signature (unsent)'}>
          {sent ? (
            <code aria-label={wasSent ? 'Header sent' : 'Header that would have been sent'} className="min-w-0 font-mono break-all [text-wrap:balance]">
              {sent}
            </code>
          ) : (
            <span className="text-faint">none: the destination had no secret then</span>
          )}
        </Row>
      </dl>
      {hmac && sent && (
        <p role="note" className={`mx-3 mb-2 flex items-start gap-1.5 text-xs ${hmac === sent.toLowerCase() ? 'text-ok' : 'text-warn'}`}>
          {hmac === sent.toLowerCase() ? (
            <>
              <CheckCircle2 aria-hidden className="mt-px size-3.5 shrink-0" />
              {wasSent ? 'The header sent' : 'The header that would have been sent'} is the HMAC-SHA1 of these bytes with the destination’s secret.
            </>
          ) : (
            <>
              <TriangleAlert aria-hidden className="mt-px size-3.5 shrink-0" />
              {wasSent ? 'The header sent' : 'The header that would have been sent'} is not the HMAC with the destination’s current secret: the secret changed after this attempt (each attempt is signed with the secret of its time).
            </>
          )}
        </p>
      )}
      {receiverRefused && (
        <p role="note" aria-label="Receiver's check" className="mx-3 mb-2 flex items-start gap-1.5 text-xs text-err">
          <TriangleAlert aria-hidden className="mt-px size-3.5 shrink-0" />
          {receiverCheck.verdict === 'invalid'
            ? `Receiver endpoint ‘${receiverCheck.receiver ?? 'receiver'}’ checks with its own secret, and found this header invalid (see the receiver’s verdict above).`
            : `Receiver endpoint ‘${receiverCheck.receiver ?? 'receiver'}’ expects an X-Signature, and this attempt sent none.`}
        </p>
      )}
      <div className="border-t border-line">
        <CodeView value={body} label="Signed bytes" language="text" maxHeight="6.5rem" />
      </div>
    </div>
  );
}
