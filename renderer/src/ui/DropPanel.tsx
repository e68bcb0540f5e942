import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { ChevronDown } from 'lucide-react';
import { Button, type ButtonProps } from './Button';

/**
 * A button that opens a small panel under it (a non-modal dialog named like the button): Escape (wherever the
 * focus is) or a click elsewhere closes it and gives focus back to the button; so does Tab out of it, which
 * leaves the focus where Tab took it (back on the button when that was the page itself).
 */
export function DropPanel({ label, title, icon, align = 'left', up = false, disabled, variant, children, width = 320 }: { label: string; title?: string; icon?: ReactNode; align?: 'left' | 'right'; /** Opens above the button (at the bottom of a screen). */ up?: boolean; disabled?: boolean; variant?: ButtonProps['variant']; width?: number; children: (close: () => void) => ReactNode }) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement | null>(null);
  const button = useRef<HTMLButtonElement | null>(null);
  const panel = useRef<HTMLDivElement | null>(null);
  const id = useId();
  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (root.current && !root.current.contains(e.target as Node)) setOpen(false);
    };
    // Taken before the page hears it: the list's Esc would also close the message behind the panel.
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.stopPropagation();
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener('mousedown', onDown);
    window.addEventListener('keydown', onKey, true);
    return () => {
      document.removeEventListener('mousedown', onDown);
      window.removeEventListener('keydown', onKey, true);
    };
  }, [open]);
  const onBlur = (e: React.FocusEvent) => {
    if (!open || (e.relatedTarget instanceof Node && root.current?.contains(e.relatedTarget))) return;
    const left = e.target;
    // A task later the focus has landed. Another window taking it (a file chooser) leaves the document's
    // active element inside: the panel stays open.
    setTimeout(() => {
      if (root.current?.contains(document.activeElement)) return;
      // A button inside turned busy (disabled) drops the focus to the page: the panel takes it and stays open,
      // else the answer it waits for (an import's or an export's error) would close with it, unseen.
      if (document.activeElement === document.body && left instanceof HTMLElement && left.matches(':disabled') && panel.current?.contains(left)) {
        panel.current.focus();
        return;
      }
      setOpen(false);
      if (document.activeElement === document.body) button.current?.focus();
    }, 0);
  };
  return (
    <div ref={root} className="relative" onBlur={onBlur}>
      <Button ref={button} variant={variant} icon={icon} disabled={disabled} title={title} aria-expanded={open} aria-controls={open ? id : undefined} onClick={() => setOpen(!open)}>
        {label}
        <ChevronDown aria-hidden className="size-3 text-faint" />
      </Button>
      {open && (
        // tabIndex -1: a click on its text focuses the panel itself, so focus stays inside and it stays open.
        <div ref={panel} id={id} role="dialog" aria-label={label} tabIndex={-1} style={{ width }} className={`absolute z-30 ${up ? 'bottom-8' : 'top-8'} rounded-lg border border-line bg-panel p-3 whitespace-normal shadow-pop outline-none ${align === 'right' ? 'right-0' : 'left-0'}`}>
          {children(close)}
        </div>
      )}
    </div>
  );
}
