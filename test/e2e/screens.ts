/**
 * Every screen and state `npm run screenshots` captures, against real `hookbench serve`s filled with realistic
 * data (a few destinations, a flaky receiver, a few dozen messages in varied statuses): scripts/screenshots.ts
 * takes their pictures and controls.e2e.ts checks the controls of each, so the two walk the same states.
 */
import { createHmac } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { judgeCapacity } from '../../main/check/capacity.js';
import type { CheckCapacity, CheckRun } from '../../main/contract/check/check.js';
import type { MessageDetail, MessageSummary, Page as ListPage } from '../../main/contract/messages.js';
import type { CaptureRecord } from '../../main/contract/receiver/receiver.js';
import { newPage } from './browser.js';
import { startServe, type RunningServe } from './serve.js';

const CONFIG = {
  sources: [
    { name: 'backend', kind: 'server', writeKey: 'wk_backend' },
    { name: 'website', kind: 'web', writeKey: 'wk_web' },
    { name: 'ios-app', kind: 'mobile', writeKey: 'wk_ios' },
  ],
  receivers: [
    { name: 'orders', secret: 's3cret', script: 200 },
    { name: 'warehouse', script: { mode: 'failureRate', rate: 0.35, seed: 7 } },
    { name: 'flaky', secret: 's3cret', script: '500,500,200' },
    { name: 'crm', script: { status: 503, retryAfter: 120 } },
    { name: 'gone', script: 404 },
    { name: 'secure', script: 200 },
    // Its secret is not the one the destination signs with: every capture is invalid.
    { name: 'billing', secret: 'old-secret', script: '200' },
  ],
  destinations: [
    { name: 'Orders service', enabled: true, sources: ['backend'], sharedSecret: 's3cret', url: 'receiver:orders', filters: { allowEvents: [], blockEvents: ['Heartbeat'] } },
    { name: 'Analytics warehouse', enabled: true, sources: ['backend', 'website'], url: 'receiver:warehouse' },
    { name: 'Flaky endpoint', enabled: true, sources: ['website'], sharedSecret: 's3cret', url: 'receiver:flaky' },
    { name: 'Legacy CRM', enabled: true, sources: ['ios-app'], url: 'receiver:crm' },
    { name: 'Old webhook', enabled: true, sources: ['ios-app'], url: 'receiver:gone' },
    { name: 'Self-signed HTTPS', enabled: false, sources: [], url: 'receiver+tls:secure' },
    { name: 'Billing', enabled: true, sources: ['backend'], sharedSecret: 's3cret', url: 'receiver:billing', filters: { allowEvents: ['Order Completed'], blockEvents: [] } },
  ],
};

/**
 * One destination with three webhooks (200, 500 and 410): its rounds and attempts counted apart, webhooks
 * failing beside a success, and, forwarding paused, each webhook's first attempt waiting. A user ID of 100
 * characters without a space (an ID built from a hash) wraps in the details pane. Source mobile-beta has no
 * destination: an audience made on it warns that its identify calls would go nowhere.
 */
const FAN_OUT = {
  sources: [
    { name: 'backend', kind: 'server', writeKey: 'wk_backend' },
    { name: 'mobile-beta', kind: 'mobile', writeKey: 'wk_beta' },
  ],
  receivers: [
    { name: 'ok', script: 200 },
    { name: 'down', script: 500 },
    { name: 'gone', script: 410 },
  ],
  destinations: [{ name: 'Fan-out', enabled: true, sources: ['backend'], webhooks: [{ url: 'receiver:ok' }, { url: 'receiver:down' }, { url: 'receiver:gone' }] }],
};
const LONG_USER_ID = `usr_${'9f86d081884c7d659a2feaa0c55ad015'.repeat(3)}`;

/** The fan-out serve's two messages: one delivered by webhook 1, one queued behind the paused forwarding. */
async function seedFanOut(r: RunningServe): Promise<{ delivered: number; queued: number }> {
  const send = (event: string) => r.call<{ message: { id: number } }>('sendMessage', { type: 'track', source: 'backend', call: { userId: LONG_USER_ID, event } });
  const delivered = (await send('Order Completed')).message.id;
  await r.call('pauseForwarding', {});
  const queued = (await send('Checkout Started')).message.id;
  return { delivered, queued };
}

const users = ['user-7', 'user-12', 'ada', 'grace', 'linus', 'user-31'];
const events = ['Order Completed', 'Product Viewed', 'Checkout Started', 'Signed Up', 'Cart Updated', 'Coupon Applied'];

/** listMessages with a text filter answers its real first `keep` rows as a page that stopped early; later pages hang. */
async function searchingPages(page: Page, keep: number): Promise<void> {
  await page.route('**/api/listMessages', async (route) => {
    const input = JSON.parse(route.request().postData() ?? '{}') as { text?: string; cursor?: string };
    if (input.text === undefined) return route.continue();
    if (input.cursor !== undefined) return; // still searching
    const answer = (await (await route.fetch()).json()) as { ok: true; value: ListPage<MessageSummary> };
    const items = answer.value.items.slice(0, keep);
    const before = items.at(-1)?.id ?? answer.value.items[0]?.id ?? 1;
    await route.fulfill({ json: { ok: true, value: { items, nextCursor: String(before), searching: { left: Math.max(before - 1, 0) } } } });
  });
}

/**
 * A capacity run's figures a real receiver cannot be made to give on demand: one that slows down and fails
 * more and more (3,452 errors, 32 timeouts) against an expected 50/s, finished; or steady, 8 seconds of 12 in.
 */
function capacityFixture(running: boolean): CheckCapacity {
  if (running) {
    const deliveries = [318, 322, 315, 320, 317, 321, 319, 316];
    return { concurrency: 16, seconds: 12, deliveriesPerSecond: 318.5, latencyMs: { p50: 50, p95: 52, p99: 55, max: 61 }, errors: {}, timeouts: 0, series: deliveries.map((d, i) => ({ second: i + 1, deliveries: d, p50: 50, p95: 52 + (i % 3), errors: 0 })), timeoutMs: 5_000, expectRate: 50, finished: false };
  }
  const deliveries = [352, 327, 286, 250, 215, 180, 144, 128, 111, 126];
  const errors = [0, 0, 0, 4, 12, 30, 520, 860, 1010, 1016];
  const p50 = [45, 49, 56, 64, 74, 89, 111, 125, 144, 127];
  const p95 = [60, 66, 80, 95, 120, 150, 260, 900, 4_800, 5_000];
  return { concurrency: 16, seconds: 10, deliveriesPerSecond: 211.9, latencyMs: { p50: 88, p95: 1_200, p99: 5_000, max: 5_000 }, errors: { 'HTTP 503': 3_420 }, timeouts: 32, series: deliveries.map((d, i) => ({ second: i + 1, deliveries: d, p50: p50[i]!, p95: p95[i]!, errors: errors[i]! })), timeoutMs: 5_000, expectRate: 50, finished: true };
}

/** getCheckRun answers the capacity run with the fixture's figures, judged as the check judges them. */
async function capacityRun(page: Page, running: boolean): Promise<void> {
  await page.route('**/api/getCheckRun', async (route) => {
    const answer = (await (await route.fetch()).json()) as { ok: true; value: CheckRun };
    const capacity = capacityFixture(running);
    const run = answer.value;
    const judged = judgeCapacity(capacity);
    const checks = running ? [] : run.checks.map((c) => ({ ...c, verdict: judged.verdict, detail: judged.detail, fix: judged.fix ?? null }));
    const summary = running ? { passed: 0, failed: 0, warnings: 0 } : { passed: 0, failed: judged.verdict === 'fail' ? 1 : 0, warnings: judged.verdict === 'warn' ? 1 : 0 };
    await route.fulfill({ json: { ok: true, value: { ...run, ...(running ? { status: 'running', finishedAt: null } : {}), options: { ...run.options, capacity: { seconds: capacity.seconds, expectRate: capacity.expectRate } }, capacity, checks, summary: { ...run.summary, ...summary } } } });
  });
}

async function seed(r: RunningServe): Promise<void> {
  const send = (type: string, source: string, call: Record<string, unknown>, extra: Record<string, unknown> = {}) => r.call('sendMessage', { type, source, call, ...extra });
  for (let i = 0; i < 18; i++) {
    await send('track', 'backend', { userId: users[i % users.length], event: events[i % events.length], properties: { total: 10 + i * 3.5, currency: 'EUR' } });
  }
  for (let i = 0; i < 6; i++) await send('page', 'website', { anonymousId: `anon-${100 + i}`, name: ['Pricing', 'Docs', 'Home'][i % 3], properties: { path: ['/pricing', '/docs', '/'][i % 3] } });
  await send('identify', 'website', { userId: 'ada', traits: { email: 'ada@example.com', plan: 'pro' } });
  await send('group', 'backend', { userId: 'grace', groupId: 'acme-inc', traits: { name: 'Acme Inc.' } });
  await send('alias', 'backend', { previousId: 'anon-104', userId: 'linus' });
  await send('track', 'backend', { userId: 'user-7', event: 'Heartbeat' });
  await send('track', 'backend', { userId: 'user-7', event: 'Internal Ping', integrations: { All: false } });
  for (let i = 0; i < 4; i++) await send('screen', 'ios-app', { userId: users[i], name: ['Checkout', 'Home', 'Settings', 'Cart'][i] });
  await send('delete', 'ios-app', { userId: 'user-31' });
  // Time passes: retries play, some succeed; then a few fresh ones wait for their first retry.
  await r.call('advanceClock', { ms: 60_000 });
  for (let i = 0; i < 3; i++) await send('page', 'website', { userId: users[i], name: 'Checkout', properties: { path: '/checkout' } });
  await send('track', 'backend', { userId: 'grace', event: 'Order Completed', properties: { total: 99 } });
  // An SDK with a stale write key: refused, in the ingest log (Troubleshoot names it).
  await fetch(`${r.info.url}/v1/batch`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from('wk_revoked_1234:').toString('base64')}`, 'content-type': 'application/json' },
    body: JSON.stringify({ batch: [{ type: 'track', userId: 'ada', event: 'Signed Up' }] }),
  });
  await seedIngestion(r);
  await seedAudiences(r);
}

/** Real SDK traffic on /v1 (usage counters and the last hour), and a few refusals for the ingest log. */
async function seedIngestion(r: RunningServe): Promise<void> {
  const post = (path: string, body: string, writeKey: string | null, headers: Record<string, string> = {}) =>
    fetch(`${r.info.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(writeKey ? { authorization: `Basic ${btoa(`${writeKey}:`)}` } : {}), ...headers }, body });
  const batch = (calls: Record<string, unknown>[]) => JSON.stringify({ batch: calls });
  for (let i = 0; i < 6; i++) {
    await post('/v1/batch', batch(users.map((u, j) => ({ type: 'track', userId: u, event: events[(i + j) % events.length], properties: { total: 5 + i + j } }))), 'wk_backend');
  }
  for (const [u, traits] of [
    ['ada', { spend: 720, region: 'EU', plan: 'pro', address: { city: 'Lyon' } }],
    ['grace', { spend: 1250, region: 'US', plan: 'enterprise' }],
    ['linus', { spend: 540, region: 'EU', plan: 'pro' }],
    ['user-7', { spend: 90, region: 'EU', plan: 'free' }],
    ['user-12', { spend: 610, region: 'EU', plan: 'pro' }],
  ] as const) {
    await post('/v1/batch', batch([{ type: 'identify', userId: u, traits }]), 'wk_backend');
  }
  await post('/v1/t', JSON.stringify({ type: 'track', anonymousId: 'anon-9', event: 'Clicked Buy', writeKey: 'wk_web' }), null, { 'content-type': 'text/plain' });
  // Refusals: an old write key, a call over 32 KiB, invalid JSON, a track without event.
  await post('/v1/batch', batch([{ type: 'track', userId: 'u1', event: 'Signed Up' }]), 'wk_old_backend_2025');
  await post('/v1/batch', batch([{ type: 'track', userId: 'u1', event: 'Big', properties: { blob: 'x'.repeat(40_000) } }]), 'wk_backend');
  await post('/v1/batch', '{"batch": [{"type": "track", "userId": "u1", "event": "Oops"', 'wk_web');
  await post('/v1/batch', batch([{ type: 'track', userId: 'u2' }]), 'wk_ios');
}

/** An audience by rule (synced, then traits change so a sync is pending), a computed trait, a deletion request. */
async function seedAudiences(r: RunningServe): Promise<void> {
  await r.call('createAudience', { source: 'backend', name: 'Big Spenders (EU) 2026', rule: { all: [{ trait: 'spend', op: 'gt', value: 500 }, { trait: 'region', op: 'equals', value: 'EU' }] } });
  await r.call('createAudience', { source: 'backend', name: 'Beta testers', members: ['ada', 'grace'] });
  await r.call('createComputedTrait', { source: 'backend', name: 'Lifetime Value', values: { ada: 1240.5, grace: 3310, linus: 455 } });
  // user-7 now spends more (joins at the next sync); linus moves to the US (leaves).
  const identify = (userId: string, traits: Record<string, unknown>) =>
    fetch(`${r.info.url}/v1/identify`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Basic ${btoa('wk_backend:')}` }, body: JSON.stringify({ userId, traits }) });
  await identify('user-7', { spend: 980 });
  await identify('linus', { region: 'US' });
  await r.call('createDeletionRequest', { userId: 'user-31' });
}

/** One screen in one state: `npm run screenshots` takes its picture, the end-to-end tests check its controls. */
export interface Screen {
  name: string;
  hash: string;
  /** The serve it is shown from: the full one, an empty one, or the one Check ran against. */
  serve: RunningServe;
  /** Brings the page into the state to capture (waits on UI state). */
  prepare?(page: Page): Promise<void>;
  /** Before the page loads: e.g. answers of the API a real serve cannot be put into on demand. */
  beforeLoad?(page: Page): Promise<void>;
}

/** A message with a long-waiting retry (Retry-After 120 s) next to a permanent failure, and its 503 attempt. */
async function findTargets(r: RunningServe) {
  const list = await r.call<ListPage<MessageSummary>>('listMessages', { limit: 200, type: 'screen', status: 'retrying' });
  const retrying = list.items[list.items.length - 1];
  if (!retrying) throw new Error('no retrying screen call in the seeded data');
  const detail = await r.call<MessageDetail>('getMessage', { id: retrying.id });
  const attempt = detail.attempts.find((a) => a.statusCode === 503);
  if (!attempt) throw new Error('no 503 attempt in the seeded data');
  // An order delivered to Billing, whose receiver checks with the wrong secret: the Signature panel's case.
  const orders = await r.call<ListPage<MessageSummary>>('listMessages', { limit: 50, event: 'Order Completed' });
  let signed: { message: MessageDetail; attemptId: number } | null = null;
  for (const m of orders.items) {
    const d = await r.call<MessageDetail>('getMessage', { id: m.id });
    const billing = d.deliveries.find((x) => x.destinationName === 'Billing');
    const a = billing && d.attempts.find((x) => x.deliveryId === billing.id && x.outcome === 'success');
    if (a) {
      signed = { message: d, attemptId: a.id };
      break;
    }
  }
  if (!signed) throw new Error('no order delivered to Billing in the seeded data');
  const captures = await r.call<ListPage<CaptureRecord>>('listCaptures', { receiver: 'billing', limit: 1 });
  const capture = captures.items[0];
  if (!capture) throw new Error('no capture at billing in the seeded data');
  // A message every destination took: nothing is left to retry or cancel.
  const delivered = (await r.call<ListPage<MessageSummary>>('listMessages', { limit: 1, status: 'delivered', type: 'track' })).items[0];
  if (!delivered) throw new Error('no delivered track call in the seeded data');
  return { retrying, failed: retrying, failedAttempt: attempt, signed, capture, delivered };
}

export interface Screens {
  screens: Screen[];
  /** Stops the serves (close the pages first). */
  stop(): Promise<void>;
}

/** Starts the serves the screens are shown from and fills them (about half a minute on 2 cores). */
export async function setUpScreens(): Promise<Screens> {
  const full = await startServe(CONFIG);
  const empty = await startServe({});
  // Check sends its own messages through the engine: a serve of its own keeps them out of the other screens.
  const checked = await startServe({ receivers: [{ name: 'any', script: 200 }] });
  const fanOut = await startServe(FAN_OUT);
  const stop = async () => {
    await full.stop();
    await empty.stop();
    await checked.stop();
    await fanOut.stop();
  };
  try {
    await seed(full);
    const fanned = await seedFanOut(fanOut);
    const { retrying, failed, failedAttempt, signed, capture, delivered } = await findTargets(full);
    const signedBody = signed.message.message.body;
    const prettyBody = JSON.stringify(JSON.parse(signedBody), null, 2);
    const listed = await full.call<ListPage<{ id: string; name: string }>>('listAudiences', {});
    const audience = listed.items.find((a) => a.name === 'Big Spenders (EU) 2026')!;
    const trait = listed.items.find((a) => a.name === 'Lifetime Value')!;
    const deletion = (await full.call<ListPage<{ id: number }>>('listDeletionRequests', {})).items[0]!;
    const checkUrl = `${checked.info.receiverUrl}/r/any`;
    // Two runs: the second is compared with the first, and both are listed under Previous runs.
    await checked.call('runCheck', { url: checkUrl, secret: 's3cret', burst: 20, wait: true });
    const checkRun = await checked.call<{ id: number }>('runCheck', { url: checkUrl, secret: 's3cret', burst: 20, wait: true });
    const capacityCheck = await checked.call<{ id: number }>('runCheck', { url: checkUrl, secret: 's3cret', only: ['capacity.sustained-rate'], capacity: { seconds: 1, expectRate: 50 }, wait: true });
    const spends: Record<string, number> = { 'user-12': 610, 'user-7': 980 };
    /** Moves a user's spend across the audience's 500 line: they join or leave at the next sync. */
    const flipSpend = async (userId: string) => {
      spends[userId] = spends[userId]! > 500 ? 90 : 900;
      await fetch(`${full.info.url}/v1/identify`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Basic ${btoa('wk_backend:')}` }, body: JSON.stringify({ userId, traits: { spend: spends[userId] } }) });
    };
    const screens: Screen[] = [
      { serve: full, name: 'live', hash: '#/live' },
      { serve: full, name: 'live-detail', hash: `#/live/${retrying.id}` },
      {
        serve: full,
        name: 'live-why',
        hash: `#/live/${retrying.id}`,
        async prepare(page) {
          await page.getByRole('group', { name: 'Actions' }).getByRole('button', { name: 'Why?' }).click();
          await page.getByRole('region', { name: 'Why?' }).getByRole('list', { name: 'Per destination' }).waitFor();
        },
      },
      { serve: full, name: 'live-delivered', hash: `#/live/${delivered.id}` },
      { serve: fanOut, name: 'live-webhooks', hash: `#/live/${fanned.delivered}`, prepare: (page) => page.getByRole('list', { name: 'Timeline of webhook 3' }).getByRole('button', { name: /^Attempt 1: http_error, HTTP 410/ }).waitFor() },
      {
        serve: fanOut,
        name: 'live-webhooks-queued',
        hash: `#/live/${fanned.queued}`,
        prepare: (page) => page.getByRole('list', { name: 'Timeline of webhook 3' }).getByText('first attempt').waitFor({ state: 'attached' }),
      },
      { serve: full, name: 'attempt', hash: `#/live/${failed.id}/attempt/${failedAttempt.id}` },
      { serve: full, name: 'compose', hash: '#/compose' },
      {
        serve: full,
        name: 'compose-invalid',
        hash: '#/compose',
        async prepare(page) {
          await page.getByLabel('Event', { exact: true }).fill('');
          await page.getByLabel('Timestamp', { exact: true }).fill('March 7');
          await page.getByRole('status', { name: 'Problems' }).waitFor();
        },
      },
      {
        serve: full,
        name: 'live-no-match',
        hash: '#/live',
        async prepare(page) {
          await page.getByLabel('Status', { exact: true }).selectOption('cancelled');
          await page.getByText('No message matches these filters').waitFor();
        },
      },
      { serve: empty, name: 'live-empty', hash: '#/live', prepare: (page) => page.getByText('Nothing to watch yet').waitFor() },
      {
        serve: empty,
        name: 'live-paused',
        hash: '#/live',
        async prepare(page) {
          await page.getByRole('button', { name: 'Pause stream' }).click();
          await page.getByText('The stream is paused').waitFor();
        },
      },
      {
        serve: full,
        name: 'signature',
        hash: `#/live/${signed.message.message.id}/attempt/${signed.attemptId}`,
        async prepare(page) {
          // A server that verified a pretty-printed copy of the body: the panel names it and diffs the bytes.
          const panel = page.getByRole('region', { name: 'Signature' });
          await panel.getByRole('button', { name: 'Reveal secret' }).click();
          await panel.getByLabel('Computed HMAC-SHA1').waitFor();
          await panel.getByLabel("Your server's signature").fill(createHmac('sha1', 's3cret').update(prettyBody).digest('hex'));
          await panel.getByRole('textbox', { name: 'Body your server saw' }).fill(prettyBody);
          await panel.getByRole('status', { name: 'Diagnosis' }).getByText(/^Matches the body/).waitFor();
          await page.evaluate('document.activeElement && document.activeElement.blur()');
          await panel.evaluate((e) => e.scrollIntoView({ block: 'start' }));
        },
      },
      {
        serve: full,
        name: 'signature-wrong-secret',
        hash: `#/live/${signed.message.message.id}/attempt/${signed.attemptId}`,
        async prepare(page) {
          const panel = page.getByRole('region', { name: 'Signature' });
          await panel.getByLabel("Your server's signature").fill(capture.signature!.expected);
          await panel.getByRole('status', { name: 'Diagnosis' }).getByText(/^No known mistake/).waitFor();
          await page.evaluate('document.activeElement && document.activeElement.blur()');
          await panel.evaluate((e) => e.scrollIntoView({ block: 'start' }));
        },
      },
      {
        serve: full,
        name: 'compare',
        hash: `#/live/${signed.message.message.id}`,
        async prepare(page) {
          await page.getByRole('region', { name: 'Message details' }).getByRole('button', { name: 'Compare webhooks' }).click();
          await page.getByRole('dialog', { name: 'Compare attempts' }).getByRole('table', { name: 'Summary compared' }).waitFor();
        },
      },
      { serve: full, name: 'receiver', hash: '#/receiver/billing' },
      { serve: full, name: 'receiver-capture', hash: `#/receiver/billing/capture/${capture.id}` },
      {
        serve: full,
        name: 'receiver-new',
        hash: '#/receiver/flaky',
        async prepare(page) {
          await page.getByRole('button', { name: 'New endpoint' }).first().click();
          await page.getByRole('form', { name: 'New endpoint' }).waitFor();
        },
      },
      {
        serve: full,
        name: 'receiver-delete',
        hash: '#/receiver/orders',
        async prepare(page) {
          await page.getByRole('button', { name: 'Delete endpoint' }).click();
          await page.getByRole('dialog', { name: 'Delete orders?' }).waitFor();
        },
      },
      { serve: empty, name: 'receiver-empty', hash: '#/receiver', prepare: (page) => page.getByText('No endpoints yet').waitFor() },
      { serve: full, name: 'settings', hash: '#/settings', prepare: (page) => page.getByRole('region', { name: 'About' }).getByText(/^\d+\.\d+\.\d+/).first().waitFor() },
      {
        serve: full,
        name: 'palette',
        hash: '#/live',
        async prepare(page) {
          await page.getByRole('row').nth(1).waitFor();
          await page.keyboard.press('Control+k');
          await page.getByRole('combobox', { name: 'Command' }).fill('re');
        },
      },
      {
        serve: full,
        name: 'live-compact',
        hash: '#/live',
        async prepare(page) {
          await page.evaluate("localStorage.setItem('hookbench.density', 'compact')");
          await page.reload();
          await page.getByRole('row').nth(1).waitFor();
          await page.evaluate("localStorage.removeItem('hookbench.density')");
        },
      },
      { serve: full, name: 'destinations', hash: '#/destinations', prepare: (page) => page.getByRole('table', { name: 'Destinations' }).getByText('%').first().waitFor() },
      { serve: empty, name: 'destinations-empty', hash: '#/destinations', prepare: (page) => page.getByText('No destinations yet').waitFor() },
      {
        serve: full,
        name: 'destination-new',
        hash: '#/destinations/new',
        async prepare(page) {
          await page.getByRole('radio', { name: /^Webhooks/ }).click();
          await page.getByRole('checkbox', { name: /backend/ }).check();
          await page.getByLabel('Webhook 1 URL').fill('https://hooks.example.com/analytics');
          await page.getByRole('button', { name: 'Add webhook' }).click();
          await page.getByRole('group', { name: 'Mock receiver quick-pick' }).getByRole('button', { name: 'receiver:orders' }).click();
          await page.getByRole('button', { name: 'Add header to webhook 1' }).click();
          await page.getByLabel('Webhook 1 header 1 name').fill('X-Env');
          await page.getByLabel('Webhook 1 header 1 value').fill('dev');
          await page.getByRole('button', { name: 'Generate' }).click();
          await page.evaluate('document.activeElement && document.activeElement.blur()');
        },
      },
      {
        serve: full,
        name: 'destination-new-limits',
        hash: '#/destinations/new',
        async prepare(page) {
          await page.getByRole('radio', { name: /^Webhooks/ }).click();
          for (let i = 1; i <= 5; i++) {
            if (i > 1) await page.getByRole('button', { name: 'Add webhook' }).click();
            await page.getByLabel(`Webhook ${i} URL`).fill(`https://hooks.example.com/${i}`);
          }
          for (let k = 0; k < 5; k++) await page.getByRole('button', { name: 'Add header to webhook 1' }).click();
          await page.getByText('5 of 5: the limit. Remove one to add another.').scrollIntoViewIfNeeded();
        },
      },
      { serve: full, name: 'destination-edit', hash: '#/destinations/Orders%20service', async prepare(page) {
        await page.getByRole('status', { name: 'Would drop' }).waitFor();
      } },
      {
        serve: full,
        name: 'destination-edit-filters',
        hash: '#/destinations/Orders%20service',
        async prepare(page) {
          await page.getByLabel('Block events').fill('Heartbeat\nProduct Viewed\nCart Updated');
          await page.getByLabel('Retry schedule').fill('5s, 1m, 10m');
          await page.getByLabel('Max attempts').fill('6');
          await page.getByRole('status', { name: 'Would drop' }).waitFor();
          await page.getByRole('region', { name: 'Event filters' }).scrollIntoViewIfNeeded();
        },
      },
      {
        serve: full,
        name: 'destination-edit-errors',
        hash: '#/destinations/Orders%20service',
        async prepare(page) {
          // One Save with several problems: each next to its field, in the unit it was typed in.
          await page.getByLabel('Timeout', { exact: true }).fill('500s');
          await page.getByLabel('Max attempts', { exact: true }).fill('0');
          await page.getByLabel('Retry schedule').fill('5s, 8d, soon');
          await page.getByLabel('Webhook 1 URL').fill('ftp://hooks.example.com/orders');
          await page.getByRole('button', { name: 'Save' }).click();
          await page.getByRole('status', { name: 'Not saved' }).waitFor();
          await page.evaluate('document.activeElement && document.activeElement.blur()');
        },
      },
      {
        serve: full,
        name: 'destination-new-errors',
        hash: '#/destinations/new',
        async prepare(page) {
          await page.getByRole('radio', { name: /^Webhooks/ }).click();
          await page.getByLabel('Name', { exact: true }).fill(' ');
          await page.getByLabel('Webhook 1 URL').fill('http:///hook');
          await page.getByRole('button', { name: 'Add header', exact: true }).click();
          await page.getByLabel('Webhook 1 header 1 name').fill('Host');
          await page.getByLabel('Webhook 1 header 1 value').fill('example.com');
          await page.getByRole('button', { name: 'Save' }).click();
          await page.getByRole('status', { name: 'Not saved' }).waitFor();
          await page.evaluate('document.activeElement && document.activeElement.blur()');
        },
      },
      {
        serve: full,
        name: 'destination-delete',
        hash: '#/destinations/Legacy%20CRM',
        async prepare(page) {
          await page.getByRole('button', { name: 'Delete', exact: true }).click();
          await page.getByRole('dialog').getByText(/pending deliver|no pending/).waitFor();
        },
      },
      { serve: full, name: 'history', hash: '#/history' },
      { serve: full, name: 'history-detail', hash: `#/history/${retrying.id}?type=screen` },
      // No filter set: the search shares its row with Status and More filters, beside an open message.
      { serve: full, name: 'history-open', hash: `#/history/${retrying.id}` },
      {
        serve: full,
        name: 'history-detail-selection',
        hash: `#/history/${retrying.id}?type=screen`,
        async prepare(page) {
          // The selection's actions beside the open message's own.
          await page.getByRole('checkbox', { name: /^Select message #/ }).first().click();
          await page.getByRole('checkbox', { name: /^Select message #/ }).nth(1).click({ modifiers: ['Shift'] });
          await page.getByText('2 selected').waitFor();
        },
      },
      {
        serve: full,
        name: 'history-selection',
        hash: '#/history?status=retrying',
        async prepare(page) {
          await page.getByRole('checkbox', { name: /^Select message #/ }).first().click();
          await page.getByRole('checkbox', { name: /^Select message #/ }).nth(2).click({ modifiers: ['Shift'] });
          await page.getByRole('button', { name: 'Export', exact: true }).click();
          await page.getByRole('dialog', { name: 'Export' }).waitFor();
        },
      },
      {
        serve: full,
        name: 'history-import',
        hash: '#/history',
        async prepare(page) {
          await page.getByRole('button', { name: 'Import' }).click();
          await page.getByRole('dialog', { name: 'Import' }).waitFor();
        },
      },
      {
        serve: full,
        name: 'history-retention',
        hash: '#/history?userId=ada',
        async prepare(page) {
          await page.getByRole('button', { name: 'Saved filters' }).click();
          const saved = page.getByRole('dialog', { name: 'Saved filters' });
          await saved.getByLabel('Name of this filter').fill('Ada');
          await saved.getByRole('button', { name: 'Save filter' }).click();
          await saved.getByRole('list', { name: 'Saved filters' }).waitFor();
          await page.getByRole('button', { name: 'Retention' }).click();
          await page.getByRole('dialog', { name: 'Retention' }).waitFor();
        },
      },
      { serve: full, name: 'history-no-match', hash: '#/history?text=no-such-words&userId=ada' },
      // Right after a burst a body search comes in short pages while the index catches up; a real serve is
      // only in that state for a moment, so the first page's answer is the real one with `searching` added,
      // and the pages after it are left unanswered (still searching).
      { serve: full, name: 'history-searching', hash: '#/history?text=Coupon', beforeLoad: (page) => searchingPages(page, 0) },
      { serve: full, name: 'history-searching-found', hash: '#/history?text=Order', beforeLoad: (page) => searchingPages(page, 3) },
      { serve: empty, name: 'history-empty', hash: '#/history' },
      { serve: full, name: 'troubleshoot', hash: '#/troubleshoot' },
      { serve: empty, name: 'troubleshoot-empty', hash: '#/troubleshoot' },
      {
        serve: checked,
        name: 'check',
        hash: `#/check/${checkRun.id}`,
        async prepare(page) {
          const item = page.getByRole('listitem', { name: /^Failed: a request signed with another secret/ });
          await item.getByRole('button', { expanded: false }).first().click();
          await item.getByRole('heading', { name: 'How to fix' }).waitFor();
        },
      },
      { serve: empty, name: 'check-empty', hash: '#/check', prepare: (page) => page.getByText('No report yet').waitFor() },
      // A receiver that slows down and fails more and more: the chart, its figures and the verdict.
      { serve: checked, name: 'check-capacity', hash: `#/check/${capacityCheck.id}`, beforeLoad: (page) => capacityRun(page, false), prepare: (page) => page.getByRole('img', { name: /^Capacity run/ }).locator('canvas').waitFor() },
      // Mid-run: the readout shows the latest measured second.
      {
        serve: checked,
        name: 'check-capacity-running',
        hash: `#/check/${capacityCheck.id}`,
        beforeLoad: (page) => capacityRun(page, true),
        async prepare(page) {
          await page.getByText(/^Second 8 \(the latest measured\)/).waitFor();
          await page.getByRole('img', { name: /^Capacity run/ }).locator('canvas').waitFor();
        },
      },
      { serve: full, name: 'sources', hash: '#/sources/backend' },
      {
        serve: full,
        name: 'sources-refusal',
        hash: '#/sources/website?sdk=browser',
        async prepare(page) {
          await page.getByRole('list', { name: 'Ingest log' }).getByRole('button', { name: /^Refusal \d+: 400 message_too_large/ }).click();
          await page.getByLabel(/^Body of refusal/).waitFor();
        },
      },
      {
        serve: full,
        name: 'sources-new',
        hash: '#/sources/backend?sdk=curl',
        async prepare(page) {
          await page.getByRole('button', { name: 'New source' }).first().click();
          await page.getByRole('form', { name: 'New source' }).waitFor();
        },
      },
      { serve: empty, name: 'sources-empty', hash: '#/sources' },
      {
        serve: full,
        name: 'audiences',
        hash: `#/audiences/audience/${audience.id}`,
        async prepare(page) {
          // Each picture syncs; a user's spend flips first, so a sync always has something to send.
          await flipSpend('user-12');
          await page.getByRole('region', { name: 'A sync now would send' }).getByRole('listitem', { name: /user-12$/ }).waitFor();
        },
      },
      {
        serve: full,
        name: 'audiences-synced',
        hash: `#/audiences/audience/${audience.id}`,
        async prepare(page) {
          await flipSpend('user-7');
          await page.getByRole('region', { name: 'A sync now would send' }).getByRole('listitem', { name: /user-7$/ }).waitFor();
          await page.getByRole('button', { name: 'Sync', exact: true }).click();
          await page.getByRole('list', { name: 'Identify calls sent' }).waitFor();
        },
      },
      {
        serve: full,
        name: 'audiences-new',
        hash: '#/audiences/new/audience',
        async prepare(page) {
          const form = page.getByRole('form', { name: 'New audience' });
          await form.getByLabel('Name').fill('Pro users in Lyon');
          await form.getByRole('button', { name: 'Add condition' }).click();
          await form.getByLabel('Condition 1 trait').fill('plan');
          await form.getByLabel('Condition 1 value').fill('pro');
          await form.getByRole('button', { name: 'Add group' }).click();
          await form.getByLabel('Rule group 2 condition 1 trait').fill('address.city');
          await form.getByLabel('Rule group 2 condition 1 value').fill('Lyon');
          await form.getByRole('status', { name: 'Matches now' }).getByText('1 user would belong now').waitFor();
          await page.evaluate('document.activeElement && document.activeElement.blur()');
        },
      },
      {
        serve: full,
        name: 'audiences-new-condition',
        hash: '#/audiences/new/audience',
        async prepare(page) {
          const form = page.getByRole('form', { name: 'New audience' });
          await form.getByLabel('Name').fill('Pro users');
          await form.getByRole('button', { name: 'Add condition' }).click();
          await form.getByRole('status', { name: 'Matches now' }).getByText('Give the new condition a trait to see who matches.').waitFor();
        },
      },
      {
        serve: full,
        name: 'audiences-deletion-unseen',
        hash: '#/audiences/new/deletion',
        async prepare(page) {
          const form = page.getByRole('form', { name: 'New deletion request' });
          await form.getByLabel('User ID').fill('nobody');
          await form.getByRole('button', { name: 'Create deletion request' }).click();
          await form.getByText(/^No source has seen "nobody"/).waitFor();
        },
      },
      {
        serve: fanOut,
        name: 'audiences-nowhere',
        hash: '#/audiences/new/audience',
        async prepare(page) {
          const form = page.getByRole('form', { name: 'New audience' });
          await form.getByLabel('Name').fill('Beta testers');
          await form.getByLabel('Source').selectOption({ label: 'mobile-beta' });
          await form.getByLabel(/^Explicit members/).fill('tester-1, tester-2');
          await form.getByRole('note').getByText(/^No enabled destination is connected to source mobile-beta/).waitFor();
          await form.getByRole('status', { name: 'Matches now' }).getByText('2 users would belong now').waitFor();
          await page.evaluate('document.activeElement && document.activeElement.blur()');
        },
      },
      { serve: full, name: 'audiences-trait', hash: `#/audiences/trait/${trait.id}` },
      { serve: full, name: 'audiences-deletion', hash: `#/audiences/deletion/${deletion.id}` },
      { serve: empty, name: 'audiences-empty', hash: '#/audiences' },
    ];
    return { screens, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

/** Opens a fresh page on a screen and brings it into its state: what it waits for is what the picture needs. */
export async function openScreen(browser: Browser, screen: Screen, options: { width: number; height: number; colorScheme: 'light' | 'dark' }): Promise<Page> {
  const page = await newPage(browser, options);
  const { name } = screen;
  await screen.beforeLoad?.(page);
  await page.goto(`${screen.serve.info.uiUrl}${screen.hash}`);
  await page.getByRole('status', { name: 'Event stream: Live' }).waitFor();
  if (name === 'live' || name === 'live-detail' || name === 'live-why' || name === 'live-delivered' || name === 'attempt') await page.getByRole('row').nth(1).waitFor();
  if (name === 'live-detail' || name === 'live-why' || name === 'live-delivered') await page.getByRole('region', { name: 'Message details' }).getByRole('button', { name: /^Attempt 1/ }).first().waitFor();
  if (name === 'attempt' || name.startsWith('signature')) await page.getByRole('region', { name: /^Attempt \d+$/ }).waitFor();
  if (name === 'receiver' || name === 'receiver-capture') await page.getByRole('list', { name: 'Captured requests' }).getByRole('listitem').first().waitFor();
  if (name === 'receiver-capture') await page.getByRole('link', { name: /^attempt \d+$/ }).waitFor();
  if (name.startsWith('compose')) await page.getByRole('button', { name: 'Send', exact: true }).waitFor();
  if (name === 'sources' || name === 'sources-refusal') await page.getByRole('list', { name: 'Ingest log' }).getByRole('listitem').first().waitFor();
  // The usage chart's code is a chunk of its own: until it is in, its place is an empty box.
  if (name === 'sources' || name === 'sources-refusal') await page.getByRole('img', { name: /^Calls per minute, last hour/ }).locator('canvas').first().waitFor();
  // The destination editor's Last hour chart too: its canvas, or the picture shows an empty grey box.
  if (name.startsWith('destination-edit')) await page.getByRole('region', { name: 'Last hour' }).getByRole('img').locator('canvas').first().waitFor();
  if (name === 'audiences' || name === 'audiences-synced') await page.getByRole('status', { name: 'Matches now' }).getByText(/would belong now/).waitFor();
  if (name === 'audiences-empty') await page.getByText('Audiences need a source').waitFor();
  if (name === 'sources-empty') await page.getByText('No sources yet').waitFor();
  if (name === 'audiences-trait') await page.getByRole('region', { name: 'Values at the last sync' }).getByRole('list').waitFor();
  if (name === 'audiences-new') await page.getByRole('status', { name: 'Matches now' }).getByText(/would belong now/).waitFor();
  if (name === 'audiences-deletion') await page.getByRole('list', { name: 'Delete notifications' }).getByRole('table').first().waitFor();
  if (name.startsWith('history')) await page.getByRole('region', { name: 'Storage' }).getByText(/stored · database/).waitFor();
  if (name === 'history' || name.startsWith('history-detail') || name === 'history-selection') await page.getByRole('checkbox', { name: /^Select message #/ }).first().waitFor();
  if (name.startsWith('history-detail')) await page.getByRole('region', { name: 'Message details' }).getByRole('button', { name: /^Attempt 1/ }).first().waitFor();
  if (name.startsWith('troubleshoot')) await page.getByRole('region', { name: 'Deliveries slow' }).waitFor();
  await screen.prepare?.(page);
  await page.evaluate('document.fonts.ready');
  return page;
}
