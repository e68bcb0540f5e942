import { useState } from 'react';
import { Eye, EyeOff } from 'lucide-react';
import type { SecretKind } from '../../../main/contract/destinations';
import { useSecrets } from '../stores/secrets';

export interface SecretDraft {
  /** The field's text: the saved secret masked as the API answers it, in clear once revealed, or as typed. */
  value: string;
  /** Typed into since it was opened: only then is it sent, and it can no longer be revealed. */
  dirty: boolean;
  /** Shown in clear (revealSecret answered). */
  shown: boolean;
  change(value: string): void;
  /** Reveals the saved secret, or masks it again. */
  toggle(): Promise<void>;
  /** There is a saved secret to reveal and nothing typed over it. */
  revealable: boolean;
}

/**
 * A saved secret in an edit form (a destination's, an endpoint's): it starts masked, the eye button fetches
 * it in clear on demand (revealSecret, through the secrets store) and masks it again; once typed into it is
 * the user's text. `id` null: nothing is saved yet (a new endpoint).
 */
export function useSecretDraft(kind: SecretKind, id: string | null, masked: string | null): SecretDraft {
  const reveal = useSecrets((s) => s.reveal);
  const [value, setValue] = useState(masked ?? '');
  const [dirty, setDirty] = useState(false);
  const [shown, setShown] = useState(false);
  const revealable = id !== null && !!masked && !dirty;
  return {
    value,
    dirty,
    shown,
    revealable,
    change(next) {
      setValue(next);
      setDirty(true);
    },
    async toggle() {
      if (id === null || dirty) return;
      if (shown) {
        setValue(masked ?? '');
        return setShown(false);
      }
      const clear = await reveal(kind, id);
      if (clear === undefined) return;
      setValue(clear ?? '');
      setShown(true);
    },
  };
}

/** The eye button at the end of a secret's field: "Reveal secret" / "Hide secret"; nothing when there is nothing to reveal. */
export function RevealSecretButton({ draft }: { draft: SecretDraft }) {
  if (!draft.revealable) return null;
  return (
    <button
      type="button"
      onClick={() => void draft.toggle()}
      aria-label={draft.shown ? 'Hide secret' : 'Reveal secret'}
      title={draft.shown ? 'Hide' : 'Reveal (asks the workbench for the secret in clear)'}
      className="flex size-7 shrink-0 items-center justify-center rounded-md text-faint hover:bg-hover hover:text-fg"
    >
      {draft.shown ? <EyeOff aria-hidden className="size-3.5" /> : <Eye aria-hidden className="size-3.5" />}
    </button>
  );
}
