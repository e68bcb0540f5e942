/**
 * Hash routes, so a view (and a selected message or attempt) can be bookmarked:
 * `#/live`, `#/live/42`, `#/live/42/attempt/7`, `#/compose`, `#/receiver/orders`, `#/receiver/orders/capture/9`, ...
 */
import { create } from 'zustand';

export const VIEWS = ['live', 'compose', 'destinations', 'sources', 'receiver', 'history', 'troubleshoot', 'audiences'] as const;
export type View = (typeof VIEWS)[number];

export interface Route {
  view: View;
  messageId: number | null;
  attemptId: number | null;
  /** The mock receiver's endpoint shown in Receiver (its name). */
  receiver: string | null;
  /** The capture opened in Receiver. */
  captureId: number | null;
}

export function parseHash(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean);
  const view = (VIEWS as readonly string[]).includes(parts[0] ?? '') ? (parts[0] as View) : 'live';
  const id = (s: string | undefined) => (s && /^\d+$/.test(s) ? Number(s) : null);
  const messageId = view === 'live' ? id(parts[1]) : null;
  const attemptId = messageId !== null && parts[2] === 'attempt' ? id(parts[3]) : null;
  const receiver = view === 'receiver' && parts[1] ? decode(parts[1]) : null;
  const captureId = receiver !== null && parts[2] === 'capture' ? id(parts[3]) : null;
  return { view, messageId, attemptId, receiver, captureId };
}

function decode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

export function formatHash(route: Route): string {
  let hash = `#/${route.view}`;
  if (route.messageId !== null) hash += `/${route.messageId}`;
  if (route.messageId !== null && route.attemptId !== null) hash += `/attempt/${route.attemptId}`;
  if (route.view === 'receiver' && route.receiver !== null) {
    hash += `/${encodeURIComponent(route.receiver)}`;
    if (route.captureId !== null) hash += `/capture/${route.captureId}`;
  }
  return hash;
}

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
