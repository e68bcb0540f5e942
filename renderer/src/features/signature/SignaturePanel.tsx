import { useCallback, useMemo } from 'react';
import type { AttemptRecord } from '../../../../main/contract/deliveries';
import type { ReceiverCheck } from '../../../../main/contract/receiver/receiver';
import { signBody, utf8, webCryptoMissing } from '../../lib/signature';
import { useAsyncValue } from '../../lib/useAsyncValue';
import { findDestination, useCatalog } from '../../stores/catalog';
import { secretKey, useSecrets } from '../../stores/secrets';
import { Card } from '../../ui/Card';
import { SignatureCheck } from './SignatureCheck';
import { SignatureFacts } from './SignatureFacts';
import { VerifySnippets } from './VerifySnippets';

/** A header's value whatever the case of its name. */
export function headerValue(headers: Record<string, string>, name: string): string | null {
  const entry = Object.entries(headers).find(([n]) => n.toLowerCase() === name);
  return entry ? entry[1] : null;
}

/**
 * Signature forensics for one attempt: the signed bytes, the destination's secret (masked until revealed),
 * the HMAC-SHA1 computed here with Web Crypto, the header sent; a check of the signature a user's server
 * computed (the CLI's `verify` diagnosis); and receiver code that verifies the raw body.
 */
export function SignaturePanel({ attempt, body, destinationId, receiverCheck = null }: { attempt: AttemptRecord; body: string; destinationId: string; receiverCheck?: ReceiverCheck | null }) {
  const destination = useCatalog((s) => findDestination(s, destinationId));
  const catalogLoaded = useCatalog((s) => s.loaded && s.allLoaded);
  const secret = useSecrets((s) => s.values[secretKey('destination', destinationId)]);
  const reveal = useSecrets((s) => s.reveal);
  const bytes = useMemo(() => utf8.encode(body), [body]);
  const cryptoMissing = webCryptoMissing();
  const computed = useAsyncValue(() => (typeof secret === 'string' && !cryptoMissing ? signBody(secret, bytes) : null), [secret, bytes, cryptoMissing]);
  const sent = headerValue(attempt.requestHeaders, 'x-signature') ?? attempt.signature;
  const gone = catalogLoaded && !destination;
  // A refused TLS handshake: the body was signed but never sent, so no server has a signature of it to check.
  const wasSent = attempt.outcome !== 'tls_error';
  const fetchSecret = useCallback(() => (gone ? Promise.resolve(undefined) : reveal('destination', destinationId)), [gone, reveal, destinationId]);

  return (
    <Card name="Signature" title="Signature">
      <SignatureFacts
        bytes={bytes}
        body={body}
        destinationId={destinationId}
        maskedSecret={destination ? destination.sharedSecret : null}
        destinationGone={gone}
        secret={secret}
        computed={computed}
        sent={sent}
        wasSent={wasSent}
        cryptoMissing={cryptoMissing}
        receiverCheck={receiverCheck}
        onCompute={() => void fetchSecret()}
      />
      {cryptoMissing ? (
        <p className="border-t border-line px-3 py-2 text-xs text-warn">{cryptoMissing}</p>
      ) : gone ? (
        <p className="border-t border-line px-3 py-2 text-xs text-muted">This attempt’s destination no longer exists, so its secret cannot be fetched to check a signature.</p>
      ) : destination?.sharedSecret === null && sent === null ? (
        <p className="border-t border-line px-3 py-2 text-xs text-muted">
          This destination has no shared secret, so nothing is signed and no <code className="font-mono">X-Signature</code> is sent. Give it one to sign every attempt.
        </p>
      ) : !wasSent ? (
        <p role="note" aria-label="Nothing to check" className="border-t border-line px-3 py-2 text-xs text-muted">
          Nothing reached your server in this attempt, so it has no signature of these bytes to check. Check one from an attempt that was sent.
        </p>
      ) : (
        <SignatureCheck bytes={bytes} body={body} secret={secret} fetchSecret={fetchSecret} />
      )}
      <VerifySnippets />
    </Card>
  );
}
