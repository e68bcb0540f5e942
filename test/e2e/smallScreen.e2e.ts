/**
 * 1024×768 and small things, against a real `hookbench serve`: every label still shows and nothing is
 * pushed out or touches its neighbour; Ctrl+K on Linux; the palette finds the Signature panel; a notice
 * never covers the next screen; an X-Signature never leaves one character alone on a line. Then the top bar
 * (with an offset, during a jump) and Live beside an open message, at 1024×768 and 1280×800: every word
 * whole, and the offset appearing moves nothing. Destinations' last delivery keeps its "… ago" whole beside a pending count.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, launchBrowser, newPage } from './browser.js';
import { startServe, type RunningServe } from './serve.js';

/** What the line measure uses of a table cell (the tests compile without the DOM's types). */
type Cell = { ownerDocument: { createRange(): { selectNodeContents(node: unknown): void; getClientRects(): Iterable<{ top: number; width: number }> } } };

const box = async (page: Page, locator: ReturnType<Page['locator']>) => (await locator.boundingBox())!;

/**
 * What does not fit in `root`: an element whose text is cut (wider inside than its box), one that sticks out
 * of `root`, and, with `groups`, two of its children closer than 4 px. Empty when everything fits.
 */
function unfit(root: ReturnType<Page['locator']>, groups: boolean): Promise<string[]> {
  return root.evaluate((el, checkGroups) => {
    const problems: string[] = [];
    const outer = el.getBoundingClientRect();
    const nameOf = (e: { getAttribute(name: string): string | null; textContent: string | null }) => e.getAttribute('aria-label') ?? (e.textContent ?? '').trim().slice(0, 40);
    if (el.scrollWidth > el.clientWidth) problems.push(`${nameOf(el)}: scrolls (${el.scrollWidth} > ${el.clientWidth})`);
    const view = el.ownerDocument.defaultView!;
    const style = (e: Parameters<typeof view.getComputedStyle>[0]) => view.getComputedStyle(e);
    for (const e of el.querySelectorAll('*')) {
      const r = e.getBoundingClientRect();
      if (r.width === 0 || style(e).visibility === 'hidden') continue;
      // Not on screen: for screen readers only (it or a box around it clipped away).
      let clipped = false;
      for (let a: typeof e | null = e; a && a !== el && !clipped; a = a.parentElement) clipped = style(a).clipPath !== 'none';
      if (clipped) continue;
      if (e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1) problems.push(`${nameOf(e)}: cut (${e.scrollWidth} > ${e.clientWidth})`);
      if (r.left < outer.left - 0.5 || r.right > outer.right + 0.5) problems.push(`${nameOf(e)}: outside (${Math.round(r.left)}–${Math.round(r.right)})`);
    }
    if (checkGroups) {
      const children = [...el.children].filter((c) => c.getBoundingClientRect().width > 0);
      for (let i = 1; i < children.length; i++) {
        if (children[i]!.getBoundingClientRect().left < children[i - 1]!.getBoundingClientRect().right + 4) problems.push(`${nameOf(children[i - 1]!)} touches ${nameOf(children[i]!)}`);
      }
    }
    return problems;
  }, groups);
}

/** Where the navigation's links and the top bar's controls are, by name. */
async function controlPlaces(page: Page): Promise<Record<string, number>> {
  const places: Record<string, number> = {};
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const name of ['Live', 'History', 'Settings']) places[`nav ${name}`] = (await box(page, nav.getByRole('link', { name, exact: true }))).y;
  const bar = page.getByRole('banner');
  for (const [name, locator] of [
    ['+5 s', bar.getByRole('button', { name: '+5 s', exact: true })],
    ['+4 h', bar.getByRole('button', { name: '+4 h', exact: true })],
    ['Next retry', bar.getByRole('button', { name: 'Next retry' })],
    ['Reset offset', bar.getByRole('button', { name: 'Reset offset' })],
    ['Fast-forward', bar.getByRole('switch', { name: 'Fast-forward unanswered attempts' })],
    ['Forwarding', bar.getByRole('switch', { name: 'Forwarding' })],
    ['Counters', bar.getByRole('group', { name: 'Counters' })],
    ['Live', bar.getByRole('status', { name: 'Event stream: Live' })],
  ] as const) {
    const b = await box(page, locator);
    places[name] = b.x;
    places[`${name} width`] = b.width;
  }
  return places;
}

describe.skipIf(chromiumMissing)('at 1024×768', () => {
  let browser: Browser;
  let r: RunningServe;
  const pages: Page[] = [];
  beforeAll(async () => {
    browser = await launchBrowser();
    r = await startServe({
      receivers: [{ name: 'ok', secret: 's3cret', script: 200 }],
      destinations: [{ name: 'A destination with a long name', enabled: true, url: 'receiver:ok', sharedSecret: 's3cret' }],
    });
  });
  afterEach(async () => {
    for (const p of pages.splice(0)) await p.context().close();
  });
  afterAll(async () => {
    await r?.stop();
    await browser?.close();
  });
  const open = async (hash: string) => {
    const page = await newPage(browser, { width: 1024, height: 768 });
    pages.push(page);
    await page.goto(`${r.info.uiUrl}${hash}`);
    await page.getByRole('status', { name: 'Event stream: Live' }).waitFor();
    return page;
  };

  it("the Receiver screen at 1024 px shows an endpoint's URLs whole (wrapped, not cut) and a capture's diagnosis whole", async () => {
    expect((await fetch(`${r.info.receiverUrl}/r/ok`, { method: 'POST', headers: { 'x-signature': '0'.repeat(40) }, body: '{"a":1}' })).status).toBe(200);
    const page = await open('#/receiver/ok');
    const endpoint = await r.call<{ url: string; tlsUrl: string }>('getReceiver', { name: 'ok' });
    const shown = [
      page.getByRole('form', { name: 'Endpoint ok' }).getByText(endpoint.url, { exact: true }),
      page.getByRole('form', { name: 'Endpoint ok' }).getByText(endpoint.tlsUrl, { exact: true }),
      page.getByRole('list', { name: 'Captured requests' }).getByText('no known mistake explains it: check the shared secret', { exact: true }),
    ];
    for (const text of shown) {
      await text.waitFor();
      expect(await text.evaluate((el) => el.scrollWidth <= el.clientWidth && el.getBoundingClientRect().right <= el.ownerDocument.documentElement.clientWidth), String(text)).toBe(true);
    }
  });

  it('History says "No messages stored yet" before anything is stored', async () => {
    const page = await open('#/history');
    await page.getByRole('heading', { name: 'No messages stored yet' }).or(page.getByText('No messages stored yet')).first().waitFor();
  });

  it('the navigation keeps its labels, the top bar fits with Reset offset labelled, and the shortcut says Ctrl+K on Linux', async () => {
    await r.call('advanceClock', { ms: 60_000 });
    const page = await open('#/live');
    for (const name of ['Live', 'History', 'Troubleshoot', 'Settings']) expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).innerText()).toBe(name);
    expect(await page.getByRole('button', { name: 'Reset offset' }).innerText()).toBe('Reset offset');
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(1024);
    const counters = await box(page, page.getByRole('group', { name: 'Counters' }));
    expect(counters.x + counters.width).toBeLessThanOrEqual(1024);
    expect(await page.getByRole('button', { name: 'Command palette' }).getAttribute('title')).toBe('Command palette (Ctrl+K)');
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    await page.locator('text="Ctrl+K" >> visible=true').waitFor();
    expect(await page.locator('text=⌘K >> visible=true').count()).toBe(0);
    await r.call('resetClock');
  });

  it('Destinations’ switches keep clear of the names', async () => {
    const page = await open('#/destinations');
    const sw = await box(page, page.getByRole('switch', { name: 'Enabled: A destination with a long name' }));
    const name = await box(page, page.getByRole('link', { name: 'A destination with a long name' }));
    expect(name.x - (sw.x + sw.width)).toBeGreaterThanOrEqual(8);
  });

  it('a destination’s editor shows its whole name, and its last delivery on one line', async () => {
    await r.call('sendMessage', { type: 'track', call: { userId: 'u1', event: 'Order Completed' } });
    for (const size of [{ width: 1024, height: 768 }, { width: 1280, height: 800 }]) {
      const page = await newPage(browser, size);
      pages.push(page);
      await page.goto(`${r.info.uiUrl}#/destinations/${encodeURIComponent('A destination with a long name')}`);
      const heading = page.getByRole('heading', { name: 'A destination with a long name', level: 2 });
      await heading.waitFor();
      await page.getByRole('switch', { name: 'Enabled' }).waitFor();
      expect(await heading.evaluate((el) => el.scrollWidth <= el.clientWidth), `${size.width} px`).toBe(true);
      if (size.width === 1280) {
        const last = page.getByText(/^last delivery/);
        await last.waitFor();
        expect((await last.boundingBox())!.height, 'one line').toBeLessThan(24);
      }
    }
  });

  it('Destinations’ last delivery shows its whole "… ago" beside a pending count, in a full table', async () => {
    const busy = await startServe({
      sources: [
        { name: 'backend', kind: 'server', writeKey: 'wk_backend' },
        { name: 'website', kind: 'web', writeKey: 'wk_web' },
      ],
      receivers: [
        { name: 'warehouse', script: { mode: 'failureRate', rate: 0.5, seed: 7 } },
        { name: 'crm', script: { status: 503, retryAfter: 120 } },
      ],
      destinations: [
        { name: 'Analytics warehouse', enabled: true, sources: ['backend', 'website'], url: 'receiver:warehouse' },
        { name: 'Legacy CRM', enabled: true, sources: ['backend'], sharedSecret: 's3cret', url: 'receiver:crm', filters: { allowEvents: [], blockEvents: ['Heartbeat'] } },
      ],
    });
    try {
      for (let i = 0; i < 8; i++) await busy.call('sendMessage', { type: 'track', source: i % 2 ? 'backend' : 'website', call: { userId: `user-${i}`, event: 'Order Completed' } });
      await busy.call('advanceClock', { ms: 60_000 });
      const page = await newPage(browser, { width: 1024, height: 768 });
      pages.push(page);
      await page.goto(`${busy.info.uiUrl}#/destinations`);
      const table = page.getByRole('table', { name: 'Destinations' });
      for (const name of ['Analytics warehouse', 'Legacy CRM']) {
        const row = table.getByRole('row', { name, exact: true });
        await row.getByText(/^· \d+ pending$/).waitFor();
        const ago = row.getByRole('link', { name: new RegExp(`^${name}: last delivery`) });
        expect(await ago.evaluate((el) => el.scrollWidth <= el.clientWidth), name).toBe(true);
      }
    } finally {
      for (const p of pages.splice(0)) await p.context().close();
      await busy.stop();
    }
  });

  it('with a message open: Resume stream whole in Live, History’s filters in at most two rows, the X-Signature in even lines, and the palette’s "sig" opens the Signature panel', async () => {
    const sent = await r.call<{ message: { id: number } }>('sendMessage', { type: 'track', call: { userId: 'ada', event: 'Order Completed', properties: { total: 42 } } });
    const id = sent.message.id;
    await expect.poll(async () => (await r.call<{ attempts: unknown[] }>('getMessage', { id })).attempts.length, { timeout: 20_000, interval: 100 }).toBe(1);

    const page = await open(`#/live/${id}`);
    await page.getByRole('region', { name: 'Message details' }).waitFor();
    await page.getByRole('button', { name: 'Pause stream' }).click();
    const resume = page.getByRole('button', { name: 'Resume stream' });
    const list = await box(page, page.getByRole('grid', { name: 'Messages' }));
    const button = await box(page, resume);
    expect(button.x + button.width).toBeLessThanOrEqual(list.x + list.width);
    expect(await resume.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);

    // "sig" offers the Signature panel; choosing it opens the attempt with the panel in view.
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await palette.getByRole('combobox', { name: 'Command' }).fill('sig');
    await palette.getByRole('option', { name: `Signature panel of message ${id}` }).click();
    const signature = page.getByRole('region', { name: 'Signature' });
    await signature.waitFor();
    expect(await signature.isVisible()).toBe(true);

    // The X-Signature header's 40 hex digits, wrapped in the narrow pane: no line is a stub of the others.
    const cell = page.getByRole('table', { name: 'Request headers' }).getByRole('row', { name: /x-signature/i }).getByRole('cell');
    const lines = await cell.evaluate((td: Cell) => {
      const range = td.ownerDocument.createRange();
      range.selectNodeContents(td);
      const widths = new Map<number, number>();
      for (const rect of range.getClientRects()) widths.set(Math.round(rect.top), Math.max(widths.get(Math.round(rect.top)) ?? 0, rect.width));
      return [...widths.values()];
    });
    if (lines.length > 1) expect(Math.min(...lines)).toBeGreaterThan(Math.max(...lines) / 3);
    // In the Signature panel too, the header sent is shown whole (wrapped), never cut at the pane's edge.
    const headerSent = signature.getByLabel('Header sent');
    expect(await headerSent.evaluate((el) => el.scrollWidth <= el.clientWidth && el.getBoundingClientRect().right <= el.ownerDocument.documentElement.clientWidth)).toBe(true);

    const history = await open(`#/history/${id}?delivery=failed`);
    await history.getByRole('region', { name: 'Message details' }).or(history.getByText('No message matches these filters')).first().waitFor();
    const filters = await box(history, history.getByRole('search', { name: 'Filters' }));
    // Two rows of 28 px controls, their gap and padding: four rows (as before) would be over 130 px.
    expect(filters.height).toBeLessThan(90);
  });

  it('a notice said in Live does not follow you back to Compose, where it would cover the preview', async () => {
    const page = await open('#/compose');
    await page.getByRole('button', { name: 'Load example' }).click();
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('status').filter({ hasText: 'track sent' }).waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Compose', exact: true }).click();
    await page.getByRole('region', { name: 'Raw JSON' }).waitFor();
    expect(await page.getByRole('status').filter({ hasText: 'track sent' }).count()).toBe(0);
  });
});

describe.skipIf(chromiumMissing)('the top bar and Live beside a message, at 1024×768 and 1280×800', () => {
  const SIZES = [
    { width: 1024, height: 768 },
    { width: 1280, height: 800 },
  ] as const;
  let browser: Browser;
  let r: RunningServe;
  const pages: Page[] = [];
  beforeAll(async () => {
    browser = await launchBrowser();
    r = await startServe({
      receivers: [
        { name: 'ok', script: 200 },
        { name: 'void', script: 'never' },
      ],
      destinations: [
        { name: 'Orders', enabled: true, url: 'receiver:ok' },
        { name: 'Billing', enabled: true, url: 'receiver:ok' },
        // Every attempt waits its whole timeout: a jump over it plays for a while, a round every 4 s.
        { name: 'Void', enabled: true, url: 'receiver:void', timeoutMs: 4_000 },
      ],
    });
  });
  afterEach(async () => {
    for (const p of pages.splice(0)) await p.context().close();
  });
  afterAll(async () => {
    await r?.stop();
    await browser?.close();
  });
  const open = async (size: { width: number; height: number }, hash: string) => {
    const page = await newPage(browser, size);
    pages.push(page);
    await page.goto(`${r.info.uiUrl}${hash}`);
    await page.getByRole('status', { name: 'Event stream: Live' }).waitFor();
    return page;
  };
  /** The words the bar must show whole, beside the clock and the counters. */
  const labelsOf = async (page: Page) => {
    const bar = page.getByRole('banner');
    return {
      forwarding: await bar.getByRole('switch', { name: 'Forwarding' }).innerText(),
      stream: await bar.getByRole('status', { name: 'Event stream: Live' }).innerText(),
      counters: await bar.getByRole('group', { name: 'Counters' }).innerText(),
    };
  };

  it('with an offset, every word of the top bar shows whole, and the offset appearing moves nothing', async () => {
    const both = await Promise.all(SIZES.map((size) => open(size, '#/live')));
    const before = await Promise.all(both.map((page) => controlPlaces(page)));

    await r.call('advanceClock', { ms: 2 * 3_600_000 + 5 * 60_000 });
    for (const [i, page] of both.entries()) {
      const bar = page.getByRole('banner');
      await bar.getByRole('group', { name: 'Engine clock' }).getByLabel('offset +2 h 05 min').waitFor();
      await bar.getByRole('button', { name: 'Reset offset' }).and(page.locator(':enabled')).waitFor();
      expect(await controlPlaces(page), `${SIZES[i]!.width} px`).toEqual(before[i]);
      expect(await unfit(bar, true), `${SIZES[i]!.width} px`).toEqual([]);
      expect(await bar.getByRole('button', { name: 'Next retry' }).innerText()).toBe('Next retry');
      expect(await bar.getByRole('button', { name: 'Reset offset' }).innerText()).toBe('Reset offset');
      const labels = await labelsOf(page);
      expect(labels.forwarding).toBe('Forwarding');
      expect(labels.stream).toBe('Live');
      for (const word of ['Messages', 'In flight', 'Retrying', 'Failed (1 h)']) expect(labels.counters.toLowerCase()).toContain(word.toLowerCase());
    }
    await r.call('resetClock');
  });

  it('during a jump, the top bar says how it goes and keeps every word whole', async () => {
    const sent = await r.call<{ message: { id: number } }>('sendMessage', { type: 'track', destinations: ['Void'], call: { userId: 'u1', event: 'Lost Order' } });
    await expect.poll(async () => (await r.call<{ deliveries: { status: string }[] }>('getMessage', { id: sent.message.id })).deliveries[0]!.status, { timeout: 20_000, interval: 100 }).toBe('retrying');
    const both = await Promise.all(SIZES.map((size) => open(size, '#/live')));
    // Not awaited: advanceClock answers when the jump has finished; Reset offset below ends it.
    const jump = r.call('advanceClock', { ms: 4 * 3_600_000 }).catch(() => undefined);
    try {
      for (const [i, page] of both.entries()) {
        const bar = page.getByRole('banner');
        // From the second round on, it says how long is left and at what pace: the longest it reads.
        const progress = bar.getByRole('status', { name: /^Jump to \+4 h: .* · round [2-9] of ~\d+, ~\d+ s each$/ });
        await progress.waitFor({ timeout: 20_000 });
        expect(await unfit(bar, true), `${SIZES[i]!.width} px`).toEqual([]);
        expect(await progress.isVisible()).toBe(true);
        const labels = await labelsOf(page);
        expect(labels.forwarding).toBe('Forwarding');
        expect(labels.stream).toBe('Live');
        expect(await bar.getByRole('button', { name: /^Cancel/ }).isVisible()).toBe(true);
      }
    } finally {
      await r.call('resetClock');
      await jump;
    }
  });

  it('Compose’s preview shows the exact bytes wrapped between members, never inside a value', async () => {
    const page = await open(SIZES[0], '#/compose');
    await page.getByRole('button', { name: 'Load example' }).click();
    const bytes = page.getByRole('region', { name: 'Preview' }).getByRole('textbox', { name: 'Body bytes' });
    await bytes.waitFor();
    const shown = await bytes.evaluate((el) => {
      const values = [...el.querySelectorAll('.cm-json-value')].map((v) => ({ text: v.textContent ?? '', height: v.getBoundingClientRect().height }));
      return { text: el.textContent ?? '', height: el.getBoundingClientRect().height, values };
    });
    // The bytes as the engine builds them: one line of JSON, nothing added to show it.
    expect(shown.text).not.toContain('\n');
    expect(JSON.parse(shown.text)).toMatchObject({ type: 'track', userId: 'user-7' });
    // The pane is narrow: the line wraps, and each value (the timestamp, "user-7") lies whole on one line.
    const line = Math.min(...shown.values.map((v) => v.height));
    expect(shown.height).toBeGreaterThan(2 * line);
    expect(shown.values.map((v) => v.text)).toContain('"user-7"');
    for (const v of shown.values) expect(v.height, v.text).toBeLessThan(1.5 * line);
  });

  it('Live beside an open message keeps its filters’ labels, the destinations’ names and the whole count', async () => {
    const sent = await r.call<{ message: { id: number } }>('sendMessage', { type: 'track', destinations: ['Orders', 'Billing'], call: { userId: 'ada', event: 'Order Completed' } });
    const id = sent.message.id;
    await expect.poll(async () => (await r.call<{ message: { status: string } }>('getMessage', { id })).message.status, { timeout: 20_000, interval: 100 }).toBe('delivered');
    for (const size of SIZES) {
      const page = await open(size, `#/live/${id}`);
      await page.getByRole('region', { name: 'Message details' }).waitFor();
      const list = page.getByRole('grid', { name: 'Messages' });
      const row = list.getByRole('row').filter({ hasText: 'Order Completed' }).first();
      await row.waitFor();
      const toolbar = page.locator('div').filter({ has: page.getByRole('combobox', { name: 'Status' }) }).filter({ has: page.getByRole('button', { name: 'Pause stream' }) }).last();
      expect(await unfit(toolbar, false), `${size.width} px`).toEqual([]);
      for (const name of ['Status', 'Type']) {
        const label = toolbar.locator('label').filter({ hasText: new RegExp(`^${name}$`) });
        expect((await box(page, label)).width, `${name} label at ${size.width} px`).toBeGreaterThan(20);
      }
      // The count says how many in words, whole.
      const count = toolbar.getByText(/^\d+ messages?$/);
      expect(await count.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
      // Each destination's chip names it, whole, beside its outcome.
      const chips = row.getByRole('img', { name: /^Orders: delivered/ });
      for (const name of ['Orders', 'Billing']) {
        const chipName = chips.getByText(name, { exact: true });
        expect(await chipName.isVisible(), `${name} at ${size.width} px`).toBe(true);
        expect(await chipName.evaluate((el) => el.scrollWidth <= el.clientWidth && el.getBoundingClientRect().width > 20), `${name} at ${size.width} px`).toBe(true);
      }
      // The row's cells stay inside the list; Pause stream is whole.
      expect(await unfit(row, false), `row at ${size.width} px`).toEqual([]);
      const pause = page.getByRole('button', { name: 'Pause stream' });
      expect(await pause.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    }
  });

  it('History beside an open message shows its search field\'s whole placeholder', async () => {
    const sent = await r.call<{ message: { id: number } }>('sendMessage', { type: 'track', call: { userId: 'ada', event: 'Searched For' }, destinations: [] });
    for (const size of SIZES) {
      const page = await open(size, `#/history/${sent.message.id}`);
      await page.getByRole('region', { name: 'Message details' }).waitFor();
      const search = page.getByRole('textbox', { name: 'Search bodies' });
      // The placeholder's width in the field's font, against the room inside the field.
      const room = await search.evaluate((el) => {
        const style = el.ownerDocument.defaultView!.getComputedStyle(el);
        const context = el.ownerDocument.createElement('canvas').getContext('2d')!;
        context.font = `${style.fontSize} ${style.fontFamily}`;
        return el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - context.measureText(el.getAttribute('placeholder') ?? '').width;
      });
      expect(room, `${size.width} px`).toBeGreaterThanOrEqual(0);
    }
  });
});
