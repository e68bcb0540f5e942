/** Debian's Chromium driven by playwright-core (no browser download). */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = process.env['HOOKBENCH_CHROMIUM'] ?? '/usr/bin/chromium';
export const chromiumMissing = !existsSync(CHROMIUM);

/**
 * The omnibox popups are off: Chromium starts their WebUI renderers for each new context's window, about
 * 250 ms of CPU a context (traced) that no page of ours asks for and a browser a person uses has paid once.
 */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup'];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
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
