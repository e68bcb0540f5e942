/**
 * The charts against a real `hookbench serve`, found by their accessible names (each says in words what it
 * shows): the Check screen's capacity run as it runs, a destination's last hour (a minute opens History with
 * that destination and that minute) and a source's traffic per minute with the refused part marked.
 */
import { describe, expect, it } from 'vitest';
import { checkReceiver, SECRET } from '../helpers/checkReceivers.js';
import { startReceiver } from '../helpers/receiver.js';
import { chromiumMissing } from './browser.js';
import { fillCheckForm, useWorkbench } from './workbench.js';

describe.skipIf(chromiumMissing)('charts', () => {
  const { serve, open } = useWorkbench();

  it('Check: the capacity run is drawn second by second, then judged against the expected rate', async () => {
    const good = checkReceiver();
    const receiver = await startReceiver((req, res) => setTimeout(() => good(req, res), 20));
    try {
      const r = await serve({});
      const page = await open(r, '#/check');
      const form = await fillCheckForm(page, { url: receiver.url, secret: SECRET, only: 'capacity.sustained-rate' });
      // A bad value is named at its field, and nothing runs until it is fixed.
      await form.getByLabel('Capacity (seconds)').fill('301');
      await form.getByText('A whole number of seconds from 1 to 300 (got 301)').waitFor();
      expect(await form.getByRole('button', { name: 'Run checks' }).isDisabled()).toBe(true);
      await form.getByLabel('Capacity (seconds)').fill('3');
      await form.getByLabel('Expected rate (/s)').fill('10');
      await form.getByRole('button', { name: 'Run checks' }).click();

      const card = page.getByRole('region', { name: 'Capacity' });
      // While it runs, the chart says how far it got.
      await card.getByRole('img', { name: /^Capacity run, deliveries per second over 3 s so far \(second [12] of 3\): [\d,.]+ a second sustained/ }).waitFor();
      const done = card.getByRole('img', { name: /^Capacity run, deliveries per second over 3 s: [\d,.]+ a second sustained, latency p50 \d+ ms and p95 \d+ ms, 0 errors, 0 timeouts; timeout 5 s$/ });
      await done.waitFor();
      await card.getByRole('listitem', { name: /^Passed: sustains 10 deliveries per second/ }).waitFor();
      await page.getByRole('region', { name: 'Report' }).getByLabel('Summary').getByText('1 passed, 0 failed, 0 warnings').waitFor();
      // The chart is drawn (a canvas the size of its box), and the point under the pointer is read out.
      const box = (await done.boundingBox())!;
      expect(box.width).toBeGreaterThan(300);
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await card.getByText(/^Second \d: [\d,]+ deliveries, p50 \d+ ms, p95 \d+ ms, 0 errors and timeouts$/).waitFor();
    } finally {
      await receiver.close();
    }
  });

  it('Destinations: the last hour by outcome; a minute opens History with that destination and that minute', async () => {
    const receiver = await startReceiver((req, res) => res.writeHead((JSON.parse(req.body.toString('utf8')) as { event: string }).event === 'Broken' ? 500 : 200).end());
    try {
      const r = await serve({ destinations: [{ name: 'Orders', enabled: true, url: receiver.url }] });
      const events = ['Paid', 'Paid', 'Paid', 'Broken'];
      for (const event of events) await r.call('sendMessage', { type: 'track', call: { userId: 'u1', event }, destinations: ['Orders'] });
      const page = await open(r, '#/destinations/Orders');
      const chart = page.getByRole('region', { name: 'Last hour' }).getByRole('img', { name: /^Deliveries per minute, last hour: 3 delivered, 1 retried, 0 failed; latency p95 at most \d+ ms; 1 waiting for a retry now; counted by rounds \(each try of a delivery\)$/ });
      await chart.waitFor();
      // Each minute is read out under the pointer. Its messages' minutes are found from the readouts, not the clock:
      // walking from the newest minute leftwards, a minute that begins meanwhile only shows a minute again.
      const plot = (await chart.locator('.u-over').boundingBox())!;
      const minuteWidth = plot.width / 60;
      const readout = page.getByText(/^\d\d:\d\d: \d+ delivered, \d+ retried, \d+ failed, p50 (–|\d+ ms), p95 (–|\d+ ms), /);
      // The readout names the point it describes (data-point): the one under the pointer once it has moved there.
      const readMinute = async (index: number): Promise<string> => {
        await page.mouse.move(plot.x + (index + 0.5) * minuteWidth, plot.y + plot.height / 2);
        await readout.and(page.locator(`[data-point="${index}"]`)).waitFor();
        return (await readout.textContent())!;
      };
      const counts = (line: string) => /: (\d+) delivered, (\d+) retried, (\d+) failed/.exec(line)!.slice(1).map(Number);
      const seen = new Map<string, { index: number; line: string }>();
      for (let index = 59; index >= 50 && [...seen.values()].flatMap((m) => counts(m.line)).reduce((a, b) => a + b, 0) < 4; index--) {
        const line = await readMinute(index);
        seen.set(line.slice(0, 5), { index, line });
      }
      const withCalls = [...seen.values()].filter((m) => counts(m.line).some((n) => n > 0));
      const total = withCalls.map((m) => counts(m.line)).reduce((a, b) => a.map((n, i) => n + b[i]!), [0, 0, 0]);
      expect(total, [...seen.values()].map((m) => m.line).join('\n')).toEqual([3, 1, 0]);
      for (const { line } of withCalls) expect(line).toMatch(/^\d\d:\d\d: \d+ delivered, \d+ retried, 0 failed, p50 \d+ ms, p95 \d+ ms, \d+ waiting for a retry/);
      // The newest of them still has the failing call waiting for its retry.
      expect(withCalls[0]!.line).toMatch(/, 1 waiting for a retry/);
      // An hour ago Hookbench had not started: that minute has no backlog, not the one now worked back.
      await readMinute(0);
      await page.getByText(/^\d\d:\d\d: 0 delivered, 0 retried, 0 failed, p50 –, p95 –, before Hookbench started/).waitFor();
      await page.mouse.click(plot.x + (withCalls[0]!.index + 0.5) * minuteWidth, plot.y + plot.height / 2);
      await expect.poll(() => decodeURIComponent(new URL(page.url()).hash)).toMatch(/^#\/history\?destinationId=[^&]+&from=\d{4}-\d\d-\d\dT\d\d:\d\d:00\.000&to=\d{4}-\d\d-\d\dT\d\d:\d\d:59\.999$/);
    } finally {
      await receiver.close();
    }
  });

  it('Sources: calls per minute with the refused ones marked, in words', async () => {
    const r = await serve({ sources: [{ name: 'backend', kind: 'server', writeKey: 'wk_backend' }] });
    const page = await open(r, '#/sources/backend');
    const post = () => fetch(`${r.info.url}/v1/track`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from('wk_backend:').toString('base64')}` }, body: JSON.stringify({ userId: 'u1', event: 'Charted' }) });
    expect((await post()).status).toBe(200);
    expect((await post()).status).toBe(200);
    // Refused with the source's own key (no userId nor anonymousId): counted as the source's, and marked.
    const broken = await fetch(`${r.info.url}/v1/track`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from('wk_backend:').toString('base64')}` }, body: JSON.stringify({ event: 'No One' }) });
    expect(broken.status).toBe(400);
    await page.getByRole('img', { name: /^Calls per minute, last hour: 3 received, 1 refused; at most 3 a minute$/ }).waitFor();
  });
});
