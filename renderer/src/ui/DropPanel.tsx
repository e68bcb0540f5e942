import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { ChevronDown } from 'lucide-react';
import { Button, type ButtonProps } from './Button';

/**
 * A button that opens a small panel under it (a non-modal dialog named like the button): Escape or a
 * click elsewhere closes it and gives focus back to the button.
 */
export function DropPanel({ label, title, icon, align = 'left', up = false, disabled, variant, children, width = 320 }: { label: string; title?: string; icon?: ReactNode; align?: 'left' | 'right'; /** Opens above the button (at the bottom of a screen). */ up?: boolean; disabled?: boolean; variant?: ButtonProps['variant']; width?: number; children: (close: () => void) => ReactNode }) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement | null>(null);
  const button = useRef<HTMLButtonElement | null>(null);
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
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);
  return (
    <div ref={root} className="relative" onKeyDown={(e) => {
      if (e.key === 'Escape' && open) {
        e.stopPropagation();
        close();
      }
    }}>
      <Button ref={button} variant={variant} icon={icon} disabled={disabled} title={title} aria-expanded={open} aria-controls={open ? id : undefined} onClick={() => setOpen(!open)}>
        {label}
        <ChevronDown aria-hidden className="size-3 text-faint" />
      </Button>
      {open && (
        <div id={id} role="dialog" aria-label={label} style={{ width }} className={`absolute z-30 ${up ? 'bottom-8' : 'top-8'} rounded-lg border border-line bg-panel p-3 whitespace-normal shadow-pop ${align === 'right' ? 'right-0' : 'left-0'}`}>
          {children(close)}
        </div>
      )}
    </div>
  );
}
