import { useEffect, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { Button } from './Button';

/**
 * The frame every confirmation shares: a modal dialog that asks before something happens, named by its
 * title and described by its text, focus on the safe button, and Esc choosing it. The page
 * behind it is inert while it is open, so a screen reader or a Tab reaches only its two buttons, and focus
 * goes back where it was when it closes. Esc is the dialog's alone: taken before anything else on the page
 * hears it (the list's Esc would also close the attempt or message behind, taking the opener with it).
 */
export function ConfirmDialog({
  id,
  title,
  text,
  width = 'w-[28rem]',
  safeLabel,
  onSafe,
  confirm,
}: {
  /** Prefix of the title's and text's element ids. */
  id: string;
  title: ReactNode;
  text: ReactNode;
  width?: string;
  safeLabel: string;
  onSafe(): void;
  /** The button that goes ahead. */
  confirm: ReactNode;
}) {
  const safeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const page = document.getElementById('root');
    page?.setAttribute('inert', '');
    safeRef.current?.focus();
    return () => {
      page?.removeAttribute('inert');
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.stopPropagation();
      onSafe();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [onSafe]);
  return createPortal(
    <div className="fixed inset-0 z-40 flex items-center justify-center bg-black/30 dark:bg-black/60">
      <div role="dialog" aria-modal="true" aria-labelledby={`${id}-title`} aria-describedby={`${id}-text`} className={`${width} max-w-[calc(100vw-2rem)] rounded-lg border border-line bg-panel p-4 shadow-pop`}>
        <h2 id={`${id}-title`} className="text-sm font-semibold">
          {title}
        </h2>
        <p id={`${id}-text`} className="mt-2 text-[13px] text-muted">
          {text}
        </p>
        <div className="mt-4 flex justify-end gap-2">
          <Button ref={safeRef} size="md" onClick={onSafe}>
            {safeLabel}
          </Button>
          {confirm}
        </div>
      </div>
    </div>,
    document.body,
  );
}
