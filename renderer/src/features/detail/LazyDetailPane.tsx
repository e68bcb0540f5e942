import { Suspense } from 'react';
import { LoaderCircle } from 'lucide-react';
import { preloadable } from '../../lib/preloadable';

// The detail pane shows bodies in CodeMirror (the `editor` chunk, ~450 kB): loaded when a message is first
// opened, so Live and History paint their lists without it (main.tsx loads it ahead for a link to a message).
const DetailPane = preloadable(async () => (await import('./DetailPane')).DetailPane);

/** The split an open message's pane shows in beside its list (ListAndPane.tsx), a chunk of its own too. */
export const PaneSplit = preloadable(async () => (await import('./PaneSplit')).PaneSplit);

/** What an open message needs: its pane and the split beside the list. */
export const preloadDetailPane = (): Promise<unknown> => Promise.all([DetailPane.preload(), PaneSplit.preload()]);

export function LazyDetailPane({ onClose }: { onClose(): void }) {
  return (
    <Suspense
      fallback={
        <div className="flex h-32 items-center justify-center text-faint" role="status" aria-label="Loading">
          <LoaderCircle aria-hidden className="size-5 animate-spin" />
        </div>
      }
    >
      <DetailPane onClose={onClose} />
    </Suspense>
  );
}
