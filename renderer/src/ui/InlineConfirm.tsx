import { useEffect, useId, useLayoutEffect, useRef, type ReactNode } from 'react';
import { Button } from './Button';

/**
 * A confirmation in place, under the button that asked for it: a dialog named by its question and
 * described by its text. Focus moves to Cancel (the button that opened it is disabled meanwhile, and a
 * keyboard would otherwise be left nowhere); Esc is Cancel; answered, it gives the focus back to that button.
 */
export function InlineConfirm({ label, children, action, busy, onConfirm, onCancel }: { label: string; children: ReactNode; action: string; busy: boolean; onConfirm(): void; onCancel(): void }) {
  const cancel = useRef<HTMLButtonElement>(null);
  const textId = useId();
  // The button that asked: disabled as this mounts, it still holds the focus until the browser moves it off.
  // Once answered, the focus goes back to it (else it would fall to the page).
  const opener = useRef<HTMLElement | null>(null);
  useLayoutEffect(() => {
    const active = document.activeElement;
    opener.current = active instanceof HTMLElement && active !== document.body ? active : null;
  }, []);
  useEffect(() => {
    cancel.current?.focus();
    return () => {
      const back = opener.current;
      setTimeout(() => {
        const active = document.activeElement;
        if ((active === null || active === document.body) && back?.isConnected && !(back as HTMLButtonElement).disabled) back.focus();
      }, 0);
    };
  }, []);
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
