/**
 * The one page the window may show, and the URLs that belong to it. Everything else (navigation, window.open,
 * an IPC sender) is measured against it: the built renderer's file:// index when the app runs its own core,
 * or the attached `hookbench serve`'s origin.
 */
import { pathToFileURL } from 'node:url';

export type AppPage =
  /** The renderer from disk; `url` may carry a query, the path is what identifies it. */
  | { kind: 'file'; url: string }
  /** A running `hookbench serve` (attach mode): its uiUrl and origin. */
  | { kind: 'serve'; url: string; origin: string };

export function filePage(indexFile: string, query: Record<string, string> = {}): AppPage {
  const url = pathToFileURL(indexFile);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  return { kind: 'file', url: url.href };
}

export function servePage(uiUrl: string): AppPage {
  return { kind: 'serve', url: uiUrl, origin: new URL(uiUrl).origin };
}

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** The app's own document: the same file (any query or hash), or any page of the attached serve's origin. */
export function isAppUrl(page: AppPage, candidate: string): boolean {
  const u = parse(candidate);
  if (!u) return false;
  if (page.kind === 'serve') return u.origin === page.origin;
  const own = new URL(page.url);
  return u.protocol === 'file:' && u.host === own.host && u.pathname === own.pathname;
}

/** A resource of the app (its document, scripts, styles): under the index's folder, or the serve's origin. */
export function isAppResource(page: AppPage, candidate: string): boolean {
  const u = parse(candidate);
  if (!u) return false;
  if (page.kind === 'serve') return u.origin === page.origin;
  const own = new URL(page.url);
  const folder = own.pathname.slice(0, own.pathname.lastIndexOf('/') + 1);
  return u.protocol === 'file:' && u.host === own.host && u.pathname.startsWith(folder);  // URL parsing has resolved any ../
}

/** Links that may leave the app: to the system browser, never inside the window. */
export function isExternalUrl(candidate: string): boolean {
  const u = parse(candidate);
  return u !== null && (u.protocol === 'https:' || u.protocol === 'http:');
}
