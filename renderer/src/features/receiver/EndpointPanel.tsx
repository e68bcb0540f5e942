import { ShieldCheck } from 'lucide-react';
import type { ReceiverEndpoint } from '../../../../main/contract/receiver/receiver';
import { openCheck } from '../../stores/check';
import { useSecrets } from '../../stores/secrets';
import { Button } from '../../ui/Button';
import { EndpointEditor } from './EndpointEditor';

/** The selected endpoint under the list: its name, the Check button, and its settings. */
export function EndpointPanel({ endpoint }: { endpoint: ReceiverEndpoint }) {
  const reveal = useSecrets((s) => s.reveal);

  /** Check opens with the endpoint's URL and its secret in clear (none: the signature area warns). */
  const checkReceiver = async () => {
    const clear = endpoint.secret === null ? null : await reveal('receiver', endpoint.name);
    const note = `From receiver endpoint ${endpoint.name}${endpoint.secret === null ? ' (no secret: it accepts any signature)' : ''}.${clear === undefined ? ' Its secret could not be fetched: type it.' : ''}`;
    openCheck({ url: endpoint.url ?? '', secret: clear ?? '', note });
  };

  return (
    <>
      <div className="mb-2 flex items-center gap-2">
        <h3 className="min-w-0 truncate font-mono text-[13px] font-semibold">{endpoint.name}</h3>
        <Button className="ml-auto" icon={<ShieldCheck aria-hidden className="size-3.5" />} disabled={endpoint.url === null} onClick={() => void checkReceiver()} title={endpoint.url === null ? 'The receiver is not listening' : `Run the conformance checks against ${endpoint.url}`}>
          Check endpoint
        </Button>
      </div>
      <EndpointEditor endpoint={endpoint} />
    </>
  );
}
