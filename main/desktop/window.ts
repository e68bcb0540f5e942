/**
 * The window's hardening (docs/architecture.md desktop/, Electron's security checklist), as data and small functions
 * so that a test can read every item: web preferences, the CSP, navigation and window.open guards, and
 * permission handlers. Electron's objects come in as parameters; only main.ts imports `electron` itself.
 */
import type { BrowserWindowConstructorOptions, HandlerDetails, OnHeadersReceivedListenerDetails, Session, WebContents, WebPreferences, WindowOpenHandlerResponse } from 'electron';
import { isAppResource, isAppUrl, isExternalUrl, type AppPage } from './appPage.js';

export interface WindowSettings {
  /** The preload script (own core only: an attached serve's page talks HTTP and gets no bridge). */
  preload: string | null;
  /** DevTools only in development. */
  dev: boolean;
}

export function webPreferences(settings: WindowSettings): WebPreferences {
  return {
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    safeDialogs: true,
    spellcheck: false,
    devTools: settings.dev,
    ...(settings.preload ? { preload: settings.preload } : {}),
  };
}

export function windowOptions(settings: WindowSettings & { icon?: string }): BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 820,
    minWidth: 900,
    minHeight: 560,
    title: 'Hookbench',
    show: false, // shown on ready-to-show: no white flash
    backgroundColor: '#11151c',
    ...(settings.icon ? { icon: settings.icon } : {}),
    webPreferences: webPreferences(settings),
  };
}

/**
 * No eval, no inline or remote scripts, no plugins, no frames, no forms posting away. Styles may be inline
 * (the editor injects style elements). An attached serve's page also talks to its own origin's WebSocket.
 */
export function contentSecurityPolicy(page: AppPage): string {
  const connect = page.kind === 'serve' ? `'self' ${page.origin.replace(/^http/, 'ws')}` : "'self'";
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    `connect-src ${connect}`,
    "object-src 'none'",
    "frame-src 'none'",
    "worker-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** onHeadersReceived: the app's own responses get our CSP (replacing any other); the rest pass unchanged. */
export function withCsp(page: AppPage, details: Pick<OnHeadersReceivedListenerDetails, 'url' | 'responseHeaders'>): { responseHeaders?: Record<string, string[]> } {
  if (!isAppResource(page, details.url)) return {};
  const headers = Object.fromEntries(Object.entries(details.responseHeaders ?? {}).filter(([k]) => k.toLowerCase() !== 'content-security-policy'));
  return { responseHeaders: { ...headers, 'Content-Security-Policy': [contentSecurityPolicy(page)] } };
}

export type NavigationVerdict = 'allow' | 'external' | 'deny';

/** A navigation the page starts: its own document stays, http(s) links go to the system browser, nothing else. */
export function navigationVerdict(page: AppPage, url: string): NavigationVerdict {
  if (isAppUrl(page, url)) return 'allow';
  return isExternalUrl(url) ? 'external' : 'deny';
}

/** window.open never opens a window; http(s) links go to the system browser. */
export function windowOpenVerdict(url: string): { response: WindowOpenHandlerResponse; external: boolean } {
  return { response: { action: 'deny' }, external: isExternalUrl(url) };
}

/** Every permission (camera, notifications, clipboard, geolocation, ...) is refused: the app needs none. */
export const refusePermissionRequest = (_contents: unknown, _permission: string, callback: (granted: boolean) => void): void => callback(false);
export const refusePermissionCheck = (): boolean => false;

export type OpenExternal = (url: string) => void;
type SessionLike = {
  webRequest: Pick<Session['webRequest'], 'onHeadersReceived'>;
} & Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler'>;

/** The session's side: CSP on the app's responses, permissions refused. `page()` is read per request (attach can change it). */
export function hardenSession(session: SessionLike, page: () => AppPage): void {
  session.webRequest.onHeadersReceived((details, callback) => callback(withCsp(page(), details)));
  session.setPermissionRequestHandler(refusePermissionRequest);
  session.setPermissionCheckHandler(refusePermissionCheck);
}

type ContentsLike = Pick<WebContents, 'on' | 'setWindowOpenHandler' | 'closeDevTools'>;

/** Each web contents' side: navigation, redirects, window.open, webviews and (outside development) DevTools. */
export function hardenContents(contents: ContentsLike, page: () => AppPage, openExternal: OpenExternal, dev: boolean): void {
  const guard = (event: { url: string; preventDefault(): void }) => {
    const verdict = navigationVerdict(page(), event.url);
    if (verdict === 'allow') return;
    event.preventDefault();
    if (verdict === 'external') openExternal(event.url);
  };
  contents.on('will-frame-navigate', guard);
  contents.on('will-redirect', guard);
  contents.setWindowOpenHandler((details: HandlerDetails) => {
    const { response, external } = windowOpenVerdict(details.url);
    if (external) openExternal(details.url);
    return response;
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  if (!dev) contents.on('devtools-opened', () => contents.closeDevTools());
}
