import type { ReactNode } from 'react';

/**
 * One row of a list the user picks from (sources, endpoints, audiences): a button named after its item that
 * says, with aria-current, which one is open. `className` lays out the row's contents.
 */
export function PickButton({ label, active, onClick, className, children }: { label: string; active: boolean; onClick(): void; className: string; children: ReactNode }) {
  return (
    <button
      type="button"
      aria-current={active ? 'true' : undefined}
      aria-label={label}
      onClick={onClick}
      className={`${className} w-full min-w-0 rounded-md px-2 text-left text-xs ${active ? 'bg-selected' : 'hover:bg-hover'}`}
    >
      {children}
    </button>
  );
}
