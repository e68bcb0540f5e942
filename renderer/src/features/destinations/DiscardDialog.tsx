import { useEffect, useRef } from 'react';
import { Button } from '../../ui/Button';

/** Asks before a form's edits are thrown away (Cancel, or leaving the editor with unsaved changes). */
export function DiscardDialog({ what, onKeep, onDiscard }: { what: string; onKeep(): void; onDiscard(): void }) {
  const keepRef = useRef<HTMLButtonElement>(null);
  useEffect(() => keepRef.current?.focus(), []);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.stopPropagation();
      onKeep();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [onKeep]);
  return (
    <div className="fixed inset-0 z-40 flex items-center justify-center bg-black/30 dark:bg-black/60">
      <div role="alertdialog" aria-modal="true" aria-labelledby="discard-title" aria-describedby="discard-text" className="w-[28rem] max-w-[calc(100vw-2rem)] rounded-lg border border-line bg-panel p-4 shadow-pop">
        <h2 id="discard-title" className="text-sm font-semibold">
          Discard your changes?
        </h2>
        <p id="discard-text" className="mt-2 text-[13px] text-muted">
          {what} has edits that are not saved. Discarding them cannot be undone.
        </p>
        <div className="mt-4 flex justify-end gap-2">
          <Button ref={keepRef} size="md" onClick={onKeep}>
            Keep editing
          </Button>
          <Button size="md" variant="confirm-danger" onClick={onDiscard}>
            Discard
          </Button>
        </div>
      </div>
    </div>
  );
}
