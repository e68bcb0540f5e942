/**
 * Every screen and state `npm run screenshots` captures (test/e2e/screens.ts), at both of its window sizes:
 * no two enabled controls of one role share an accessible name (someone who picks "Cancel" by name must get
 * one), and a disabled control says why. A failure names the screen, the role and the name.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, launchBrowser } from './browser.js';
import { controlsOf, duplicateNames, silentDisabled } from './controls.js';
import { openScreen, setUpScreens, type Screens } from './screens.js';

const SIZES = [
  [1280, 800],
  [1024, 768],
] as const;

describe.skipIf(chromiumMissing)('the controls of every screen', () => {
  let browser: Browser;
  let screens: Screens;
  beforeAll(async () => {
    browser = await launchBrowser();
    screens = await setUpScreens();
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await screens?.stop();
  });

  it('have names of their own, and the disabled ones say why', async () => {
    const problems: string[] = [];
    for (const [width, height] of SIZES) {
      for (const screen of screens.screens) {
        const page = await openScreen(browser, screen, { width, height, colorScheme: 'light' });
        try {
          const view = `${screen.name} (${screen.hash}, ${width}×${height})`;
          const controls = await controlsOf(page);
          problems.push(...duplicateNames(view, controls), ...silentDisabled(view, controls));
        } finally {
          // A route still answering a poll (the Check screens' fixtures) must not throw once the page is gone.
          await page.unrouteAll({ behavior: 'ignoreErrors' });
          await page.context().close();
        }
      }
    }
    expect(problems).toEqual([]);
  }, 600_000);
});
