/**
 * Hash routes, so a view (and a selected message or attempt) can be bookmarked (pure: the router store,
 * stores/router.ts, and the page's first requests, api/firstRequests.ts, both read them):
 * `#/live`, `#/live/42`, `#/live/42/attempt/7`, `#/compose`, `#/receiver/orders`, `#/receiver/orders/capture/9`,
 * `#/history/42?userId=ada`, ...
 *
 * Live and History open a message (and an attempt) in the detail pane; Receiver has its endpoint and
 * capture: these are typed parts. Every other view owns its own
 * path segments (`sub`, e.g. `#/destinations/3`) and every view may keep a query (`#/history?status=failed`),
 * so a screen's filter can be bookmarked or shared.
 */
export const VIEWS = ['live', 'compose', 'destinations', 'sources', 'receiver', 'history', 'troubleshoot', 'check', 'audiences', 'settings'] as const;
export type View = (typeof VIEWS)[number];

export interface Route {
  view: View;
  messageId: number | null;
  attemptId: number | null;
  /** The mock receiver's endpoint shown in Receiver (its name). */
  receiver: string | null;
  /** The capture opened in Receiver. */
  captureId: number | null;
  /** Path segments after the view, for views other than Live and Receiver (decoded). */
  sub: string[];
  /** The hash's query (`?a=1&b=2`), for filters that should survive a reload or a shared link. */
  query: Record<string, string>;
}

export function parseHash(hash: string): Route {
  const raw = hash.replace(/^#\/?/, '');
  const q = raw.indexOf('?');
  const parts = (q === -1 ? raw : raw.slice(0, q)).split('/').filter(Boolean);
  const query: Record<string, string> = {};
  if (q !== -1) for (const [k, v] of new URLSearchParams(raw.slice(q + 1))) query[k] = v;
  const view = (VIEWS as readonly string[]).includes(parts[0] ?? '') ? (parts[0] as View) : 'live';
  const id = (s: string | undefined) => (s && /^\d+$/.test(s) ? Number(s) : null);
  const messageId = opensMessages(view) ? id(parts[1]) : null;
  const attemptId = messageId !== null && parts[2] === 'attempt' ? id(parts[3]) : null;
  const receiver = view === 'receiver' && parts[1] ? decode(parts[1]) : null;
  const captureId = receiver !== null && parts[2] === 'capture' ? id(parts[3]) : null;
  const sub = opensMessages(view) || view === 'receiver' ? [] : parts.slice(1).map(decode);
  return { view, messageId, attemptId, receiver, captureId, sub, query };
}

/** Views whose path is a message and an attempt (the detail pane). */
export function opensMessages(view: View): boolean {
  return view === 'live' || view === 'history';
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
  if (!opensMessages(route.view) && route.view !== 'receiver') for (const part of route.sub) hash += `/${encodeURIComponent(part)}`;
  const query = new URLSearchParams(Object.entries(route.query).filter(([, v]) => v !== '')).toString();
  if (query) hash += `?${query}`;
  return hash;
}
