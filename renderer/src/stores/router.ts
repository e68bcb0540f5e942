/** The router: the route of the hash (parsed and formatted by lib/hashRoute.ts), and navigation. */
import { create } from 'zustand';
import { formatHash, parseHash, type Route } from '../lib/hashRoute';

export { formatHash, opensMessages, parseHash, VIEWS, type Route, type View } from '../lib/hashRoute';

interface RouterState {
  route: Route;
  /** `replace` for moves that should not fill the history (arrow keys through a list). */
  navigate(patch: Partial<Route>, options?: { replace?: boolean }): void;
}

export const useRouter = create<RouterState>((set, get) => ({
  route: parseHash(typeof window === 'undefined' ? '' : window.location.hash),
  navigate(patch, options) {
    const current = get().route;
    const next: Route = { ...current, ...patch };
    if (patch.view && patch.view !== current.view) {
      if (!('messageId' in patch)) {
        next.messageId = null;
        next.attemptId = null;
      }
      if (!('receiver' in patch)) {
        next.receiver = null;
        next.captureId = null;
      }
      if (!('sub' in patch)) next.sub = [];
      if (!('query' in patch)) next.query = {};
    }
    if ('messageId' in patch && !('attemptId' in patch) && patch.messageId !== current.messageId) next.attemptId = null;
    if ('receiver' in patch && !('captureId' in patch) && patch.receiver !== current.receiver) next.captureId = null;
    const hash = formatHash(next);
    if (hash !== window.location.hash) {
      if (options?.replace) window.history.replaceState(window.history.state, '', hash);
      else window.history.pushState(window.history.state, '', hash);
    }
    set({ route: next });
  },
}));

export function listenToHash(): () => void {
  const onChange = () => useRouter.setState({ route: parseHash(window.location.hash) });
  window.addEventListener('hashchange', onChange);
  window.addEventListener('popstate', onChange);
  return () => {
    window.removeEventListener('hashchange', onChange);
    window.removeEventListener('popstate', onChange);
  };
}
