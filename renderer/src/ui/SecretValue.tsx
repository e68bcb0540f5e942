import { useState } from 'react';
import { Eye, EyeOff, LoaderCircle } from 'lucide-react';
import type { SecretKind } from '../../../main/contract/destinations';
import { secretKey, useSecrets } from '../stores/secrets';

/**
 * A secret as the API answers it (masked, `s3••••`) with an eye button that reveals it (revealSecret) and
 * hides it again. `label` names the value ("Secret"); the button says "Reveal secret" or "Hide secret".
 */
export function SecretValue({ kind, id, masked, label }: { kind: SecretKind; id: string; masked: string | null; label: string }) {
  const [shown, setShown] = useState(false);
  const value = useSecrets((s) => s.values[secretKey(kind, id)]);
  const loading = useSecrets((s) => s.loading[secretKey(kind, id)] ?? false);
  const reveal = useSecrets((s) => s.reveal);
  if (masked === null) return <span className="text-faint">none</span>;
  const toggle = async () => {
    if (shown) return setShown(false);
    const secret = await reveal(kind, id);
    if (secret !== undefined) setShown(true);
  };
  const clear = shown && value !== undefined && value !== null;
  return (
    <span className="inline-flex min-w-0 items-center gap-1">
      <code aria-label={label} className={`min-w-0 truncate rounded bg-panel-2 px-1 font-mono ${clear ? 'text-fg' : 'text-muted'}`}>
        {clear ? value : masked}
      </code>
      <button
        type="button"
        aria-label={`${shown ? 'Hide' : 'Reveal'} ${label.toLowerCase()}`}
        title={shown ? 'Hide' : 'Reveal (asks the workbench for the secret in clear)'}
        onClick={() => void toggle()}
        className="flex size-6 shrink-0 items-center justify-center rounded-md text-faint hover:bg-hover hover:text-fg"
      >
        {loading ? <LoaderCircle aria-hidden className="size-3.5 animate-spin" /> : shown ? <EyeOff aria-hidden className="size-3.5" /> : <Eye aria-hidden className="size-3.5" />}
      </button>
    </span>
  );
}
