import { useState, type FocusEvent, type MouseEvent, type ReactNode } from 'react';
import type { ApiError } from '../../../../main/contract/result';
import { useRouter } from '../../stores/router';
import { toastApiError } from '../../stores/toasts';
import { serverProblems, slotLabel, type DestinationForm, type FormKind, type ServerProblem } from './destinationForm';
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
      {/* Named apart from the navigation's own Destinations link. */}
      <a href="#/destinations" onClick={onCrumbClick} aria-label="All destinations" className="text-xs text-muted hover:text-fg hover:underline">
        Destinations
      </a>
      <span className="text-faint">/</span>
      {children}
    </div>
  );
}

/**
 * The form slots whose fields the user has left (`data-slot` on their inputs), or 'all' once Save was
 * tried; `onBlur` goes on the form. A field left by pressing a button shows its problem only after the
 * click: the problem's line moves what is below it, and a click whose button moved between press and
 * release would be lost.
 */
export function useLeftFields(): { touched: ReadonlySet<string> | 'all'; touchAll(): void; onBlur(e: FocusEvent<HTMLElement>): void } {
  const [touched, setTouched] = useState<ReadonlySet<string> | 'all'>(() => new Set());
  const onBlur = (e: FocusEvent<HTMLElement>) => {
    const slot = (e.target as HTMLElement).closest<HTMLElement>('[data-slot]')?.dataset['slot'];
    if (!slot) return;
    const apply = () => setTouched((t) => (t === 'all' || t.has(slot) ? t : new Set([...t, slot])));
    if (pointerIsDown) window.addEventListener('pointerup', () => setTimeout(apply), { once: true });
    else apply();
  };
  return { touched, touchAll: () => setTouched('all'), onBlur };
}

let pointerIsDown = false;
if (typeof window !== 'undefined') {
  window.addEventListener('pointerdown', () => (pointerIsDown = true), true);
  window.addEventListener('pointerup', () => (pointerIsDown = false), true);
}

/**
 * Each problem of a server error next to its field when the form has one (in the field's words and units,
 * see serverProblem), else as a notice.
 */
export function placeError(command: string, error: ApiError, kind: FormKind, form: DestinationForm, setServer: (problems: ServerProblem[]) => void): void {
  const { placed, unplaced } = serverProblems(kind, form, error);
  setServer(placed);
  if (placed.length === 0) toastApiError(command, error);
  else for (const problem of unplaced) toastApiError(command, problem);
}

/** Focuses a slot's field (its first input), for the summary's links. */
function focusSlot(from: HTMLElement, slot: string): void {
  const form = from.closest('form');
  const at = form?.querySelector<HTMLElement>(`[data-slot="${CSS.escape(slot)}"]`);
  const target = at?.matches('input, textarea, select, button') ? at : at?.querySelector<HTMLElement>('input, textarea, select, button');
  target?.scrollIntoView({ block: 'center' });
  target?.focus({ preventScroll: true });
}

/**
 * After a failed Save, beside the buttons: the one problem in full, or how many there are with a link to
 * each field (every message is next to its field).
 */
export function NotSaved({ server, touched, shown }: { server: readonly unknown[]; touched: ReadonlySet<string> | 'all'; shown: Errors }) {
  const slots = Object.keys(shown);
  if (!((server.length > 0 || touched === 'all') && slots.length > 0)) return null;
  const lines = Object.values(shown).flatMap((m) => m.split('\n'));
  return (
    <div className="flex min-w-0 flex-1 items-center gap-1.5 text-xs text-err" role="status" aria-label="Not saved" title={lines.join('\n')}>
      {lines.length === 1 ? (
        <span className="min-w-0 truncate">Not saved: {lines[0]}</span>
      ) : (
        <>
          <span className="shrink-0">
            Not saved: {lines.length} problems{slots.length < lines.length ? ` in ${slots.length} fields` : ''}:
          </span>
          <span className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-0.5 overflow-hidden">
            {slots.map((slot) => (
              <button key={slot} type="button" className="shrink-0 underline decoration-dotted underline-offset-2 hover:text-fg" title={shown[slot]} onClick={(e) => focusSlot(e.currentTarget, slot)}>
                {slotLabel(slot)}
              </button>
            ))}
          </span>
        </>
      )}
    </div>
  );
}
