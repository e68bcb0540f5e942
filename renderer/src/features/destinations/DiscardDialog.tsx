import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/ConfirmDialog';

/** Asks before a form's edits are thrown away (Cancel, or leaving the editor with unsaved changes). */
export function DiscardDialog({ what, onKeep, onDiscard }: { what: string; onKeep(): void; onDiscard(): void }) {
  return (
    <ConfirmDialog
      id="discard"
      title="Discard your changes?"
      text={`${what} has edits that are not saved. Discarding them cannot be undone.`}
      safeLabel="Keep editing"
      onSafe={onKeep}
      confirm={
        <Button size="md" variant="confirm-danger" onClick={onDiscard}>
          Discard
        </Button>
      }
    />
  );
}
