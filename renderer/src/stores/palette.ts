/**
 * Whether the ⌘K palette is open: the nav's button and Ctrl/⌘+K open it, the palette closes it. It remembers
 * what had the focus when it opened: its dialog (Radix, without a trigger) would otherwise leave the focus on
 * the page's body when it closes.
 */
import { create } from 'zustand';

let opener: HTMLElement | null = null;

export const usePalette = create<{ open: boolean; setOpen(open: boolean): void }>((set, get) => ({
  open: false,
  setOpen: (open) => {
    if (open && !get().open && typeof document !== 'undefined') {
      const active = document.activeElement;
      opener = active instanceof HTMLElement && active !== document.body ? active : null;
    }
    set({ open });
  },
}));

/**
 * Once the palette has closed (its dialog unmounts in the same commit; a task later it is gone), focus goes to
 * `to()`'s element or, without one, back where it was when the palette opened.
 */
export function focusAfterPalette(to: () => HTMLElement | null = () => null): void {
  const back = opener;
  opener = null;
  setTimeout(() => {
    const target = to() ?? (back?.isConnected ? back : null);
    target?.focus();
  }, 0);
}
