// First: in a build it has already run, as index.html's first script; in development it starts here.
import './api/firstRequests';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './index.css';
import { chooseTransport } from './api/chooseTransport';
import { createApiClient } from './api/client';
import { App } from './app/App';
import { NoToken } from './app/NoToken';
import { firstAnswersIn, startSession } from './app/session';
import { SCREENS } from './app/views';
import { preloadDetailPane } from './features/detail/LazyDetailPane';
import { initDensity } from './stores/density';
import { opensMessages, useRouter } from './stores/router';
import { initTheme } from './stores/theme';
import { toastApiError } from './stores/toasts';

/** How long the first render waits at most for the first answers (a slow server: the frame first, with its placeholders). */
const FIRST_ANSWERS_MS = 250;

initTheme();
initDensity();
const root = createRoot(document.getElementById('root')!);
const choice = chooseTransport();
if (choice.ok) {
  startSession(createApiClient(choice.transport, toastApiError));
  // The landing screen's code (and a linked message's pane, with its split) is in by now or soon (the page's
  // first script preloaded it): rendering once it is spares the screen a suspense, which React shows 300 ms
  // late at best. So are the first answers (the first script asked for them), which the first frame shows.
  const { view, messageId } = useRouter.getState().route;
  const landing = [
    SCREENS[view].preload(),
    ...(messageId !== null && opensMessages(view) ? [preloadDetailPane()] : []),
    firstAnswersIn(view, FIRST_ANSWERS_MS),
  ];
  void Promise.allSettled(landing).then(() =>
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  );
} else {
  root.render(<NoToken />);
}
