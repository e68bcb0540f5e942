import { useEffect, useState } from 'react';
import { Trash2 } from 'lucide-react';
import type { Destination } from '../../../../main/contract/destinations';
import { api } from '../../api/instance';
import { plural } from '../../lib/format';
import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/ConfirmDialog';

/** Confirms a deletion, saying how many pending deliveries it cancels (listDestinationStats, read on open). */
export function DeleteDialog({ destination, onCancel, onConfirm }: { destination: Destination; onCancel(): void; onConfirm(): Promise<void> }) {
  const [pending, setPending] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    void api()
      .call('listDestinationStats', {})
      .then((r) => r.ok && setPending(r.value.items.find((s) => s.destinationId === destination.id)?.pending ?? 0));
  }, [destination.id]);
  return (
    <ConfirmDialog
      id="delete"
      title={`Delete ${destination.name}?`}
      text={
        <>
          {pending === null
            ? 'Counting its pending deliveries…'
            : pending === 0
              ? 'It has no pending deliveries: nothing is cancelled.'
              : `This cancels ${plural(pending, 'pending delivery', 'pending deliveries')} (queued, retrying or in flight): their messages show “destination deleted”.`}{' '}
          Its past deliveries stay in the history.
        </>
      }
      safeLabel="Cancel"
      onSafe={onCancel}
      confirm={
        <Button
          size="md"
          variant="confirm-danger"
          busy={busy}
          disabled={pending === null}
          title={pending === null ? 'Wait: its pending deliveries are being counted' : undefined}
          icon={<Trash2 aria-hidden className="size-3.5" />}
          onClick={async () => {
            setBusy(true);
            await onConfirm();
            setBusy(false);
          }}
        >
          Delete
        </Button>
      }
    />
  );
}
