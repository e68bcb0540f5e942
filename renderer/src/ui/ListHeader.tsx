import { Plus } from 'lucide-react';
import { Button } from './Button';

/** The bar above a list of things (sources, endpoints, destinations): its title, how many, and the button that adds one. */
export function ListHeader({ title, count, newLabel, onNew, newDisabled = null, primary = false }: {
  title: string;
  /** e.g. "3 sources". */
  count: string;
  /** The button's accessible name and text, e.g. "New source". */
  newLabel: string;
  onNew(): void;
  /** Why the button is disabled (its title), or null while it is not. */
  newDisabled?: string | null;
  /** The list's main action when it is empty or nearly so (Destinations). */
  primary?: boolean;
}) {
  return (
    <div className="flex h-10 shrink-0 items-center gap-2 border-b border-line px-3">
      <h2 className="text-xs font-semibold tracking-wide text-muted uppercase">{title}</h2>
      <span className="text-[11px] text-faint">{count}</span>
      <Button className="ml-auto" variant={primary ? 'primary' : 'default'} icon={<Plus aria-hidden className="size-3.5" />} onClick={onNew} disabled={newDisabled !== null} title={newDisabled ?? undefined}>
        {newLabel}
      </Button>
    </div>
  );
}
