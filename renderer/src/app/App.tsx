import { useEffect } from 'react';
import { useRouter, listenToHash } from '../stores/router';
import { Toasts } from '../ui/Toasts';
import { ComingNext } from '../features/placeholder/ComingNext';
import { ComposeView } from '../features/compose/ComposeView';
import { LiveView } from '../features/live/LiveView';
import { ReceiverView } from '../features/receiver/ReceiverView';
import { ErrorBoundary } from './ErrorBoundary';
import { Nav } from './Nav';
import { TopBar } from './TopBar';


export function App() {
  const view = useRouter((s) => s.route.view);
  useEffect(() => listenToHash(), []);
  return (
    <div className="flex h-full">
      <Nav />
      <div className="flex min-w-0 flex-1 flex-col">
        <TopBar />
        <main className="min-h-0 flex-1" aria-label={view}>
          <ErrorBoundary resetKey={view}>{view === 'live' ? <LiveView /> : view === 'compose' ? <ComposeView /> : view === 'receiver' ? <ReceiverView /> : <ComingNext view={view} />}</ErrorBoundary>
        </main>
      </div>
      <Toasts />
    </div>
  );
}
