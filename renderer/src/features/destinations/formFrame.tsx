import { useState, type MouseEvent, type ReactNode } from 'react';
import { useRouter } from '../../stores/router';
import type { Errors } from './fields';
import { DiscardDialog } from './DiscardDialog';

/**
 * What the new-destination and edit forms share about leaving: every edit marks the form changed, and
 * leaving a changed form (Cancel, Back to the list, the breadcrumb) asks before it discards.
 */
export function useDirtyForm(what: string) {
  const navigate = useRouter((s) => s.navigate);
  const [dirty, setDirty] = useState(false);
  const [discarding, setDiscarding] = useState(false);
  const leave = () => navigate({ view: 'destinations', sub: [] });
  return {
    dirty,
    setDirty,
    leave,
    /** Wraps a setter so that using it marks the form changed. */
    edit:
      <T,>(set: (value: T) => void) =>
      (value: T) => {
        set(value);
        setDirty(true);
      },
    cancel: () => (dirty ? setDiscarding(true) : leave()),
    onCrumbClick: (e: MouseEvent) => {
      if (!dirty) return;
      e.preventDefault();
      setDiscarding(true);
    },
    discardDialog: discarding ? <DiscardDialog what={what} onKeep={() => setDiscarding(false)} onDiscard={leave} /> : null,
  };
}

/** The form's top line: "Destinations / <title>", then whatever the form adds. */
export function FormCrumb({ onCrumbClick, children }: { onCrumbClick(e: MouseEvent): void; children: ReactNode }) {
  return (
    <div className="flex h-10 shrink-0 items-center gap-2 border-b border-line bg-panel px-3">
      <a href="#/destinations" onClick={onCrumbClick} className="text-xs text-muted hover:text-fg hover:underline">
        Destinations
      </a>
      <span className="text-faint">/</span>
      {children}
    </div>
  );
}

/** After a failed Save, the first problem beside the buttons. */
export function NotSaved({ errors, touched, shown }: { errors: Errors; touched: ReadonlySet<string> | 'all'; shown: Errors }) {
  if (!((Object.keys(errors).length > 0 || touched === 'all') && Object.keys(shown).length > 0)) return null;
  return (
    <span className="min-w-0 truncate text-xs text-err" role="status">
      Not saved: {Object.values(shown)[0]}
    </span>
  );
}
