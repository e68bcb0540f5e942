import { lazy, Suspense } from 'react';
import { LoaderCircle } from 'lucide-react';

// The detail pane shows bodies in CodeMirror (the `editor` chunk, ~450 kB): loaded when a message is first
// opened, so Live and History paint their lists without it.
const DetailPane = lazy(async () => ({ default: (await import('./DetailPane')).DetailPane }));

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
