/** Debian's Chromium driven by playwright-core (no browser download). */
import type { Browser, Page } from 'playwright-core';
import { CHROMIUM, chromiumMissing as noChromium, launchChromium } from '../../bench/chromium.js';

export { CHROMIUM };
export const chromiumMissing = noChromium() !== null;

/** Launched as the benches launch it (bench/chromium.ts: CHROMIUM_ARGS says why the omnibox popups are off). */
export function launchBrowser(): Promise<Browser> {
  return launchChromium();
}

/** A fresh page (its own context, so sessionStorage and theme start clean). */
export async function newPage(browser: Browser, options: { width?: number; height?: number; colorScheme?: 'light' | 'dark' } = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: options.width ?? 1280, height: options.height ?? 800 }, colorScheme: options.colorScheme ?? 'light' });
  const page = await context.newPage();
  // Nothing fails silently: a page error fails the test that caused it.
  page.on('pageerror', (e) => {
    if (process.env['HOOKBENCH_LOG_PAGE_ERRORS']) {
      console.error('pageerror', page.url(), e.stack);
      return;
    }
    throw e;
  });
  return page;
}
