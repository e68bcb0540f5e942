import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './index.css';
import { chooseTransport } from './api/chooseTransport';
import { createApiClient } from './api/client';
import { App } from './app/App';
import { NoToken } from './app/NoToken';
import { startSession } from './app/session';
import { initDensity } from './stores/density';
import { initTheme } from './stores/theme';
import { toastApiError } from './stores/toasts';

initTheme();
initDensity();
const root = createRoot(document.getElementById('root')!);
const choice = chooseTransport();
if (choice.ok) {
  startSession(createApiClient(choice.transport, toastApiError));
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
} else {
  root.render(<NoToken />);
}
