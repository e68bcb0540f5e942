/**
 * One browser per test file, a real `hookbench serve` per test: `const wb = useWorkbench()` in a describe,
 * then `await wb.serve(config)` and `await wb.open(serve, '#/live')`. Pages close before their serve stops.
 */
import type { Browser, Locator, Page } from 'playwright-core';
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

/**
 * A serve whose one destination, Down, answers 500 to everything, one track call sent to it, and that message open
 * in Live once its first attempt has failed: where every test of a retrying message starts.
 */
export async function openRetryingMessage(wb: Workbench, call: Record<string, unknown>): Promise<{ r: RunningServe; sent: { message: { id: number } }; page: Page; details: Locator }> {
  const r = await wb.serve({ receivers: [{ name: 'down', script: 500 }], destinations: [{ name: 'Down', enabled: true, url: 'receiver:down' }] });
  const sent = await r.call<{ message: { id: number } }>('sendMessage', { type: 'track', call });
  const page = await wb.open(r, `#/live/${sent.message.id}`);
  const details = page.getByRole('region', { name: 'Message details' });
  await details.getByRole('button', { name: /^Attempt 1: http_error, HTTP 500/ }).waitFor();
  return { r, sent, page, details };
}

/** The Check screen's form, filled as a user types it: the URL, then the secret and the checks to run when given. */
export async function fillCheckForm(page: Page, fields: { url: string; secret?: string; only?: string }): Promise<Locator> {
  const form = page.getByRole('form', { name: 'Check an endpoint' });
  await form.getByLabel('URL', { exact: true }).fill(fields.url);
  if (fields.secret !== undefined) await form.getByLabel('Secret', { exact: true }).fill(fields.secret);
  if (fields.only !== undefined) await form.getByLabel('Only these checks').fill(fields.only);
  return form;
}
