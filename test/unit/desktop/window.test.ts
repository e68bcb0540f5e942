import { describe, expect, it } from 'vitest';
import { filePage, servePage, type AppPage } from '../../../main/desktop/appPage.js';
import { contentSecurityPolicy, hardenContents, hardenSession, navigationVerdict, webPreferences, windowOptions, withCsp } from '../../../main/desktop/window.js';

const own = filePage('/opt/Hookbench/resources/app.asar/dist/renderer/index.html', { api: 'http://127.0.0.1:4400' });
const attached = servePage('http://127.0.0.1:4400/?token=abc');

/** CSP directives as a map: name → sources. */
function directives(csp: string): Map<string, string[]> {
  return new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...sources]) => [name!, sources]));
}

describe('window hardening: every item of the checklist', () => {
  it('web preferences: isolation, sandbox, no Node, web security, no webviews; DevTools only in development', () => {
    const prod = webPreferences({ preload: '/app/preload.cjs', dev: false });
    expect(prod).toMatchObject({
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
      devTools: false,
      preload: '/app/preload.cjs',
    });
    expect(webPreferences({ preload: null, dev: true }).devTools).toBe(true);
    expect(webPreferences({ preload: null, dev: true })).not.toHaveProperty('preload'); // an attached serve's page gets no bridge
    expect(windowOptions({ preload: null, dev: false }).webPreferences).toEqual(webPreferences({ preload: null, dev: false }));
  });

  it.each([['own file page', own] as const, ['attached serve', attached] as const])('CSP (%s): no eval, no inline or remote scripts, nothing framed or embedded', (_name, page: AppPage) => {
    const d = directives(contentSecurityPolicy(page));
    expect(d.get('default-src')).toEqual(["'none'"]);
    expect(d.get('script-src')).toEqual(["'self'"]);
    expect(d.get('object-src')).toEqual(["'none'"]);
    expect(d.get('frame-src')).toEqual(["'none'"]);
    expect(d.get('frame-ancestors')).toEqual(["'none'"]);
    expect(d.get('base-uri')).toEqual(["'none'"]);
    expect(d.get('form-action')).toEqual(["'none'"]);
    const all = contentSecurityPolicy(page);
    expect(all).not.toContain('unsafe-eval');
    expect(all).not.toContain('wasm-unsafe-eval');
    for (const [name, sources] of d) {
      if (name === 'style-src') continue; // inline styles only (the editor injects style elements)
      expect(sources, name).not.toContain("'unsafe-inline'");
      expect(sources.filter((s) => s.includes('*')), name).toEqual([]);
      expect(sources.filter((s) => /^https?:/.test(s)), name).toEqual([]); // no remote origins
    }
    if (page.kind === 'serve') expect(d.get('connect-src')).toEqual(["'self'", 'ws://127.0.0.1:4400']);
  });

  it('the CSP header goes on the app\'s own responses, replacing theirs, and nowhere else', () => {
    const doc = withCsp(own, { url: own.url, responseHeaders: { 'content-security-policy': ["default-src *"], 'x-other': ['1'] } });
    expect(doc.responseHeaders).toEqual({ 'x-other': ['1'], 'Content-Security-Policy': [contentSecurityPolicy(own)] });
    expect(withCsp(own, { url: 'file:///opt/Hookbench/resources/app.asar/dist/renderer/assets/app.js' }).responseHeaders).toBeDefined();
    expect(withCsp(own, { url: 'file:///etc/passwd' })).toEqual({});
    expect(withCsp(own, { url: 'https://example.com/' })).toEqual({});
    expect(withCsp(attached, { url: 'http://127.0.0.1:4400/assets/app.js' }).responseHeaders?.['Content-Security-Policy']).toEqual([contentSecurityPolicy(attached)]);
    expect(withCsp(attached, { url: 'http://127.0.0.1:4401/' })).toEqual({});
  });

  it('navigation: the app page stays; http(s) goes to the system browser; anything else is denied', () => {
    expect(navigationVerdict(own, `${own.url}#/live`)).toBe('allow');
    expect(navigationVerdict(own, 'file:///opt/Hookbench/resources/app.asar/dist/renderer/other.html')).toBe('deny');
    expect(navigationVerdict(own, 'file:///etc/passwd')).toBe('deny');
    expect(navigationVerdict(own, 'https://example.com/docs')).toBe('external');
    expect(navigationVerdict(own, 'javascript:alert(1)')).toBe('deny');
    expect(navigationVerdict(own, 'data:text/html,<script>1</script>')).toBe('deny');
    expect(navigationVerdict(attached, 'http://127.0.0.1:4400/destinations')).toBe('allow');
    expect(navigationVerdict(attached, 'http://127.0.0.1:4401/')).toBe('external');
    expect(navigationVerdict(attached, 'file:///etc/passwd')).toBe('deny');
  });

  it('the session refuses every permission and sets the CSP; the contents guard navigation, window.open, webviews and DevTools', () => {
    const recorded: Record<string, unknown> = {};
    hardenSession(
      {
        webRequest: { onHeadersReceived: ((l: unknown) => (recorded['headers'] = l)) as never },
        setPermissionRequestHandler: (h) => (recorded['request'] = h),
        setPermissionCheckHandler: (h) => (recorded['check'] = h),
      },
      () => own,
    );
    const answers: boolean[] = [];
    (recorded['request'] as (c: unknown, p: string, cb: (g: boolean) => void) => void)({}, 'media', (g) => answers.push(g));
    (recorded['request'] as (c: unknown, p: string, cb: (g: boolean) => void) => void)({}, 'notifications', (g) => answers.push(g));
    expect(answers).toEqual([false, false]);
    expect((recorded['check'] as () => boolean)()).toBe(false);
    let headers: unknown;
    (recorded['headers'] as (d: unknown, cb: (r: unknown) => void) => void)({ url: own.url, responseHeaders: {} }, (r) => (headers = r));
    expect(headers).toEqual({ responseHeaders: { 'Content-Security-Policy': [contentSecurityPolicy(own)] } });

    const on = new Map<string, (e: { url: string; preventDefault(): void }) => void>();
    let openHandler: ((d: { url: string }) => unknown) | null = null;
    let devtoolsClosed = 0;
    const opened: string[] = [];
    hardenContents(
      {
        on: ((name: string, l: never) => on.set(name, l)) as never,
        setWindowOpenHandler: ((h: never) => (openHandler = h)) as never,
        closeDevTools: () => void devtoolsClosed++,
      },
      () => own,
      (url) => opened.push(url),
      false,
    );
    expect([...on.keys()].sort()).toEqual(['devtools-opened', 'will-attach-webview', 'will-frame-navigate', 'will-redirect']);
    const navigate = (name: string, url: string) => {
      let prevented = false;
      on.get(name)!({ url, preventDefault: () => (prevented = true) });
      return prevented;
    };
    expect(navigate('will-frame-navigate', 'https://example.com/')).toBe(true);
    expect(navigate('will-redirect', 'file:///etc/passwd')).toBe(true);
    expect(navigate('will-frame-navigate', own.url)).toBe(false);
    expect(navigate('will-attach-webview', 'about:blank')).toBe(true);
    expect(openHandler!({ url: 'https://example.com/x' })).toEqual({ action: 'deny' });
    expect(openHandler!({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(opened).toEqual(['https://example.com/', 'https://example.com/x']);
    (on.get('devtools-opened') as unknown as () => void)();
    expect(devtoolsClosed).toBe(1);
  });

  it('in development DevTools may stay open', () => {
    const on = new Map<string, unknown>();
    hardenContents({ on: ((n: string, l: unknown) => on.set(n, l)) as never, setWindowOpenHandler: () => undefined, closeDevTools: () => undefined }, () => own, () => undefined, true);
    expect(on.has('devtools-opened')).toBe(false);
  });
});
