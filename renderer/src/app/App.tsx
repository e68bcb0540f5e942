import { lazy, Suspense, useEffect } from 'react';
import { useRouter, listenToHash } from '../stores/router';
import { Toasts } from '../ui/Toasts';
import { ComingNext } from '../features/placeholder/ComingNext';
import { LiveView } from '../features/live/LiveView';
import { Nav } from './Nav';
import { TopBar } from './TopBar';

const ComposeView = lazy(() => import('../features/compose/ComposeView').then((m) => ({ default: m.ComposeView })));

export function App() {
  const view = useRouter((s) => s.route.view);
  useEffect(() => listenToHash(), []);
  return (
    <div className="flex h-full">
      <Nav />
      <div className="flex min-w-0 flex-1 flex-col">
        <TopBar />
        <main className="min-h-0 flex-1" aria-label={view}>
          {view === 'live' ? (
            <LiveView />
          ) : view === 'compose' ? (
            <Suspense fallback={null}>
              <ComposeView />
            </Suspense>
          ) : (
            <ComingNext view={view} />
          )}
        </main>
      </div>
      <Toasts />
    </div>
  );
}
