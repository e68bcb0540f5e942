import { useEffect, useRef, useState } from 'react';
import { Trash2 } from 'lucide-react';
import type { Destination } from '../../../../main/contract/models';
import { api } from '../../api/instance';
import { plural } from '../../lib/format';
import { Button } from '../../ui/Button';

/** Confirms a deletion, saying how many pending deliveries it cancels (listDestinationStats, read on open). */
export function DeleteDialog({ destination, onCancel, onConfirm }: { destination: Destination; onCancel(): void; onConfirm(): Promise<void> }) {
  const [pending, setPending] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const cancelRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    cancelRef.current?.focus();
    void api()
      .call('listDestinationStats', {})
      .then((r) => r.ok && setPending(r.value.items.find((s) => s.destinationId === destination.id)?.pending ?? 0));
  }, [destination.id]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onCancel();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onCancel]);
  return (
    <div className="fixed inset-0 z-40 flex items-center justify-center bg-black/30 dark:bg-black/60">
      <div role="alertdialog" aria-modal="true" aria-labelledby="delete-title" aria-describedby="delete-text" className="w-[28rem] max-w-[calc(100vw-2rem)] rounded-lg border border-line bg-panel p-4 shadow-pop">
        <h2 id="delete-title" className="text-sm font-semibold">
          Delete {destination.name}?
        </h2>
        <p id="delete-text" className="mt-2 text-[13px] text-muted">
          {pending === null
            ? 'Counting its pending deliveries…'
            : pending === 0
              ? 'It has no pending deliveries: nothing is cancelled.'
              : `This cancels ${plural(pending, 'pending delivery', 'pending deliveries')} (queued, retrying or in flight): their messages show “destination deleted”.`}{' '}
          Its past deliveries stay in the history.
        </p>
        <div className="mt-4 flex justify-end gap-2">
          <Button ref={cancelRef} size="md" onClick={onCancel}>
            Cancel
          </Button>
          <Button
            size="md"
            variant="confirm-danger"
            busy={busy}
            disabled={pending === null}
            icon={<Trash2 aria-hidden className="size-3.5" />}
            onClick={async () => {
              setBusy(true);
              await onConfirm();
              setBusy(false);
            }}
          >
            Delete
          </Button>
        </div>
      </div>
    </div>
  );
}
