/**
 * The browser of the benches that open the UI, and of the end-to-end tests (test/e2e/browser.ts): Debian's
 * Chromium driven by playwright-core, no browser download.
 */
import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';

export const CHROMIUM = process.env['HOOKBENCH_CHROMIUM'] ?? '/usr/bin/chromium';

/**
 * The omnibox popups are off: Chromium starts their WebUI renderers for each new context's window, about
 * 250 ms of CPU a context (traced) that no page of ours asks for and a browser a person uses has paid once.
 */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup'];

/** Why a bench that opens the UI cannot run here (no Chromium), or null. */
export function chromiumMissing(): string | null {
  return existsSync(CHROMIUM) ? null : `skipped: no Chromium at ${CHROMIUM} (install Debian's chromium, or set HOOKBENCH_CHROMIUM)`;
}

export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}
