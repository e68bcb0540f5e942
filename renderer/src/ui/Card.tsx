import { useId, useState, type ReactNode } from 'react';
import { ChevronDown, ChevronRight } from 'lucide-react';

/** A collapsible section of a detail pane: the header is a button that names the section. */
/** `name`: the section becomes a region with that accessible name (a landmark to find it by). */
export function Card({ title, aside, children, defaultOpen = true, className = '', heading = 'section', name }: { title: ReactNode; aside?: ReactNode; children: ReactNode; defaultOpen?: boolean; className?: string; heading?: 'section' | 'name'; name?: string }) {
  const [open, setOpen] = useState(defaultOpen);
  const bodyId = useId();
  return (
    <section aria-label={name} className={`rounded-lg border border-line bg-panel ${className}`}>
      {/* A long title (the body's "Body sent, not delivered: cancelled" in a narrow pane) wraps rather than lose its last word. */}
      <div className="flex min-h-9 items-center gap-2 pr-2">
        <button
          type="button"
          aria-expanded={open}
          aria-controls={bodyId}
          onClick={() => setOpen(!open)}
          className={`flex min-w-0 flex-1 items-center gap-1.5 self-stretch rounded-l-lg py-1 pl-2 text-left hover:text-fg ${heading === 'section' ? 'text-xs font-semibold tracking-wide text-muted uppercase' : 'text-[13px] font-semibold text-fg'}`}
        >
          {open ? <ChevronDown aria-hidden className="size-3.5 shrink-0" /> : <ChevronRight aria-hidden className="size-3.5 shrink-0" />}
          <span className="line-clamp-2 leading-tight">{title}</span>
        </button>
        {aside && <div className="flex shrink-0 items-center gap-1.5">{aside}</div>}
      </div>
      {open && (
        <div id={bodyId} className="border-t border-line">
          {children}
        </div>
      )}
    </section>
  );
}
