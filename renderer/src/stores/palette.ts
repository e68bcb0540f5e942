/** Whether the ⌘K palette is open: the nav's button and Ctrl/⌘+K open it, the palette closes it. */
import { create } from 'zustand';

export const usePalette = create<{ open: boolean; setOpen(open: boolean): void }>((set) => ({ open: false, setOpen: (open) => set({ open }) }));
