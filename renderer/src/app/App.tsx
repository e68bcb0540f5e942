import { Suspense, useEffect, useRef } from 'react';
import { LoaderCircle } from 'lucide-react';
import { useRouter, listenToHash } from '../stores/router';
import { Toasts } from '../ui/Toasts';
import { ErrorBoundary } from './ErrorBoundary';
import { Nav } from './Nav';
import { PaletteLauncher } from './PaletteLauncher';
import { TokenBanner } from './TokenBanner';
import { TopBar } from './TopBar';
import { SCREENS } from './views';
import { SCREEN_ID, screenElement } from './screenElement';
import { titleOf, VIEW_LABELS } from './viewLabels';

export function App() {
  const view = useRouter((s) => s.route.view);
  const Screen = SCREENS[view];
  useEffect(() => listenToHash(), []);
  useEffect(() => {
    document.title = titleOf(view);
  }, [view]);
  // A screen, message or item opened by an action (Send, Replay, Send test event, a confirmed Delete) unmounts
  // the control that had the focus, which would fall to the page: the screen's main landmark takes it.
  const place = useRouter(({ route: r }) => [r.view, r.messageId, r.receiver, ...r.sub].join('\u0000'));
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const active = document.activeElement;
    if (active === null || active === document.body) screenElement()?.focus();
  }, [place]);
  return (
    <div className="flex h-full">
      <Nav />
      <div className="flex min-w-0 flex-1 flex-col">
        <TopBar />
        <TokenBanner />
        {/* Focusable from script (tabIndex -1), not by Tab: the palette moves focus here when it opens a screen. */}
        <main id={SCREEN_ID} tabIndex={-1} className="min-h-0 flex-1 outline-none" aria-label={VIEW_LABELS[view]}>
          <ErrorBoundary resetKey={view}>
            <Suspense
              fallback={
                <div role="status" aria-label="Loading" className="flex h-full items-center justify-center text-faint">
                  <LoaderCircle aria-hidden className="size-5 animate-spin" />
                </div>
              }
            >
              <Screen />
            </Suspense>
          </ErrorBoundary>
        </main>
      </div>
      <PaletteLauncher />
      <Toasts />
    </div>
  );
}
