import { useEffect, useId, useRef, type ReactNode } from 'react';
import { Button } from './Button';

/**
 * A confirmation in place, under the button that asked for it: a dialog named by its question and
 * described by its text. Focus moves to Cancel (the button that opened it is disabled meanwhile, and a
 * keyboard would otherwise be left nowhere); Esc is Cancel.
 */
export function InlineConfirm({ label, children, action, busy, onConfirm, onCancel }: { label: string; children: ReactNode; action: string; busy: boolean; onConfirm(): void; onCancel(): void }) {
  const cancel = useRef<HTMLButtonElement>(null);
  const textId = useId();
  useEffect(() => cancel.current?.focus(), []);
  return (
    <div
      role="dialog"
      aria-label={label}
      aria-describedby={textId}
      onKeyDown={(e) => {
        if (e.key !== 'Escape') return;
        e.stopPropagation();
        onCancel();
      }}
      className="flex flex-col gap-2 rounded-md border border-err/40 bg-err-soft/40 p-2.5 text-xs"
    >
      <p id={textId} className="text-fg">
        {children}
      </p>
      <div className="flex gap-2">
        <Button variant="confirm-danger" busy={busy} onClick={onConfirm}>
          {action}
        </Button>
        <Button ref={cancel} onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </div>
  );
}
