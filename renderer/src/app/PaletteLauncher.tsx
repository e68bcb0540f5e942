import { Suspense, useEffect, useState } from 'react';
import { useHotkeys } from 'react-hotkeys-hook';
import { preloadable } from '../lib/preloadable';
import { focusAfterPalette, usePalette } from '../stores/palette';

/** The palette (cmdk and its dialog, ~80 kB) is not part of the first screen: it loads once the app is idle, or when first opened. */
const CommandPalette = preloadable(async () => (await import('./CommandPalette')).CommandPalette);
const LOAD_AFTER_MS = 2000;

/** Ctrl/⌘+K opens the ⌘K palette from anywhere (so does the nav's button); the palette mounts once first opened. */
export function PaletteLauncher() {
  const open = usePalette((s) => s.open);
  const [used, setUsed] = useState(open);
  if (open && !used) setUsed(true);
  useHotkeys(
    'mod+k',
    () => {
      const { open, setOpen } = usePalette.getState();
      setOpen(!open);
      if (open) focusAfterPalette();
    },
    { enableOnFormTags: true, enableOnContentEditable: true, preventDefault: true },
  );
  useEffect(() => {
    const timer = setTimeout(() => void CommandPalette.preload().catch(() => undefined), LOAD_AFTER_MS);
    return () => clearTimeout(timer);
  }, []);
  return used ? (
    <Suspense fallback={null}>
      <CommandPalette />
    </Suspense>
  ) : null;
}
