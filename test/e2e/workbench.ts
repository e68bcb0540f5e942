/**
 * One browser per test file, a real `hookbench serve` per test: `const wb = useWorkbench()` in a describe,
 * then `await wb.serve(config)` and `await wb.open(serve, '#/live')`. Pages close before their serve stops.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { launchBrowser, newPage } from './browser.js';
import { startServe, type RunningServe } from './serve.js';

export interface Workbench {
  serve(config: Record<string, unknown>): Promise<RunningServe>;
  /** Opens the serve's UI at `hash` and waits until the event stream is live. */
  open(r: RunningServe, hash?: string): Promise<Page>;
}

export function useWorkbench(): Workbench {
  let browser: Browser;
  const running: RunningServe[] = [];
  const pages: Page[] = [];
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async () => {
    // Pages first: a serve waits for the browser's open connections before it exits.
    for (const p of pages.splice(0)) await p.context().close();
    for (const r of running.splice(0)) await r.stop();
  });
  return {
    async serve(config) {
      const r = await startServe(config);
      running.push(r);
      return r;
    },
    async open(r, hash = '') {
      const page = await newPage(browser);
      pages.push(page);
      await page.goto(`${r.info.uiUrl}${hash}`);
      await page.getByRole('status', { name: 'Event stream: Live' }).waitFor();
      return page;
    },
  };
}
