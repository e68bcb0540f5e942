/**
 * Time travel against endpoints that never answer, in the workbench (docs/behaviour.md §5): a +4 h jump
 * finishes with every message failed, its progress in words in the top bar; Cancel and Reset offset
 * interrupt a jump while its attempt still waits on the network; a ghost marker advances to its retry; the
 * top bar's controls, disabled while they run, give the keyboard focus back.
 * Destinations have short timeouts so that each real wait is short; every wait is on UI or engine state.
 */
import { describe, expect, it } from 'vitest';
import type { MessageDetail } from '../../main/contract/messages.js';
import type { ClockStatus, Overview } from '../../main/contract/overview.js';
import { chromiumMissing } from './browser.js';
import { openRetryingMessage, useWorkbench } from './workbench.js';

/** An engine time as the timeline writes it today: "11:38:14" (local). */
const formatClock = (at: number) => new Date(at).toTimeString().slice(0, 8);

const JUMPING = 'A jump is playing: wait for it to finish, or Cancel it';

describe.skipIf(chromiumMissing)('time travel that finishes, and Reset that answers', () => {
  const { serve, open } = useWorkbench();

  it('+4 h over 20 messages to an endpoint that never answers: the top bar says what it plays, and every message ends failed, retry window exhausted, after honest timeouts', async () => {
    const r = await serve({ receivers: [{ name: 'void', script: 'never' }], destinations: [{ name: 'Void', enabled: true, url: 'receiver:void', timeoutMs: 400 }] });
    const ids: number[] = [];
    for (let i = 0; i < 20; i++) ids.push((await r.call<{ message: { id: number } }>('sendMessage', { type: 'track', call: { userId: `u${i}`, event: 'Lost Order' } })).message.id);
    const page = await open(r, '#/live');
    // Every first attempt (live) has timed out: the 20 wait for their retries.
    await expect.poll(async () => (await r.call<Overview>('getOverview')).retrying, { timeout: 20_000 }).toBe(20);

    const timeTravel = page.getByRole('group', { name: 'Time travel' });
    await timeTravel.getByRole('button', { name: '+4 h', exact: true }).click();
    const progress = page.getByRole('status', { name: /^Jump to \+4 h: / });
    await progress.waitFor();
    // It says how long it has left, in time: one timeout's wait per round of unanswered attempts.
    await expect.poll(() => progress.getAttribute('aria-label'), { timeout: 20_000, interval: 50 }).toMatch(/^Jump to \+4 h: (about \d+ s left|almost done) · round \d+ of ~\d+, ~\d+ s each$/);
    // While it plays: the steps say why they are disabled, Cancel and Reset offset are there to stop it.
    const step = timeTravel.getByRole('button', { name: '+1 h', exact: true });
    expect(await step.isDisabled()).toBe(true);
    expect(await step.getAttribute('aria-description')).toBe(JUMPING);
    expect(await timeTravel.getByRole('button', { name: 'Cancel jump' }).isEnabled()).toBe(true);
    expect(await timeTravel.getByRole('button', { name: 'Reset offset' }).isEnabled()).toBe(true);

    await progress.waitFor({ state: 'detached', timeout: 45_000 });
    await page.getByRole('group', { name: 'Engine clock' }).getByLabel('offset +4 h').waitFor();
    // The steps come back once the advance has answered (its events can arrive a moment before its answer).
    await expect.poll(() => step.isEnabled()).toBe(true);
    const overview = await r.call<Overview>('getOverview');
    expect(overview.counts.failed).toBe(20);
    for (const id of ids) {
      const detail = await r.call<MessageDetail>('getMessage', { id });
      expect(detail.message).toMatchObject({ status: 'failed', statusReason: 'retry window exhausted' });
      expect(detail.attempts.length).toBeGreaterThanOrEqual(7);
      // Honest: every attempt waited the destination's whole timeout, none was fast-forwarded.
      for (const a of detail.attempts) {
        expect(a.outcome).toBe('timeout');
        expect(a.error).toBe('no response headers within 400 ms');
        expect(a.durationMs).toBeGreaterThanOrEqual(399);
      }
    }
    await page.getByRole('row').filter({ hasText: 'Lost Order' }).first().getByText('failed', { exact: true }).waitFor();
  });

  it('Cancel and Reset offset interrupt a jump while its attempt still waits on the endpoint; the clock stays where it got to, or goes back to real time', async () => {
    // The first attempt gets a 500 at once; every later one is never answered (each waits its 8 s timeout).
    const r = await serve({ receivers: [{ name: 'hang', script: '500,never' }], destinations: [{ name: 'Hang', enabled: true, url: 'receiver:hang', timeoutMs: 8_000 }] });
    const sent = await r.call<{ message: { id: number } }>('sendMessage', { type: 'track', call: { userId: 'u1', event: 'Hanging Order' } });
    const page = await open(r, `#/live/${sent.message.id}`);
    const details = page.getByRole('region', { name: 'Message details' });
    await details.getByRole('button', { name: /^Attempt 1: http_error, HTTP 500/ }).waitFor();
    const timeTravel = page.getByRole('group', { name: 'Time travel' });
    const clock = page.getByRole('group', { name: 'Engine clock' });
    const attemptsOf = async () => (await r.call<MessageDetail>('getMessage', { id: sent.message.id })).attempts.length;

    // Cancel: the jump stops at the retry it was playing (about +5 s), not at +4 h.
    await timeTravel.getByRole('button', { name: '+4 h', exact: true }).click();
    const progress = page.getByRole('status', { name: /^Jump to \+4 h: (starting · 1 delivery due|timing the first round · round 1 of ~\d+)$/ });
    await progress.waitFor();
    await timeTravel.getByRole('button', { name: 'Cancel jump' }).click();
    await progress.waitFor({ state: 'detached' });
    expect(await attemptsOf()).toBe(1); // answered while attempt 2 still waits on the endpoint
    const cancelled = await r.call<ClockStatus>('getClock');
    expect(cancelled.jump).toBeNull();
    expect(cancelled.offsetMs).toBeGreaterThan(0);
    expect(cancelled.offsetMs).toBeLessThan(60_000);
    await clock.getByLabel(/^offset \+\d+ s$/).waitFor();

    // Attempt 2 ends by itself (its timeout); then a new jump plays attempt 3, and Reset offset interrupts it.
    await details.getByRole('button', { name: /^Attempt 2: timeout/ }).waitFor({ timeout: 20_000 });
    await timeTravel.getByRole('button', { name: '+4 h', exact: true }).click();
    await progress.waitFor();
    await timeTravel.getByRole('button', { name: 'Reset offset' }).click();
    await progress.waitFor({ state: 'detached' });
    await clock.getByLabel('real time').waitFor();
    expect(await attemptsOf()).toBe(2); // attempt 3 still waits on the endpoint
    expect(await r.call<ClockStatus>('getClock')).toMatchObject({ offsetMs: 0, jump: null });
    // Attempt 3, played at engine time +35 s or so, ends; its next retry keeps its distance to real now.
    await details.getByRole('button', { name: /^Attempt 3: timeout/ }).waitFor({ timeout: 20_000 });
    const delivery = (await r.call<MessageDetail>('getMessage', { id: sent.message.id })).deliveries[0]!;
    expect(delivery.status).toBe('retrying');
    expect(delivery.nextAttemptAt! - Date.now()).toBeLessThan(2 * 60_000 * 1.2);
  });

  it('Advance to attempt N, on a ghost marker, moves the clock to that retry and plays it; Fast-forward unanswered attempts is a switch kept by the engine', async () => {
    const { r, page, details } = await openRetryingMessage({ serve, open }, { userId: 'u1', event: 'Down Order' });

    await details.getByRole('listitem', { name: /^Scheduled attempt 3 at / }).getByRole('button', { name: 'Advance to attempt 3 (Down)' }).click();
    await details.getByRole('button', { name: /^Attempt 3: http_error, HTTP 500/ }).waitFor();
    await details.getByRole('listitem', { name: /^Scheduled attempt 4 at / }).waitFor();
    // Attempt 3 fell due about 35 s after the first (5 s + 30 s, each ± 20 %): the clock went that far.
    const offset = (await r.call<ClockStatus>('getClock')).offsetMs;
    expect(offset).toBeGreaterThan(20_000);
    expect(offset).toBeLessThan(60_000);

    const fastForward = page.getByRole('switch', { name: 'Fast-forward unanswered attempts' });
    expect(await fastForward.getAttribute('aria-checked')).toBe('false');
    await fastForward.click();
    await page.getByRole('switch', { name: 'Fast-forward unanswered attempts', checked: true }).waitFor();
    expect((await r.call<ClockStatus>('getClock')).fastForward).toBe(true);
    await page.reload();
    await page.getByRole('switch', { name: 'Fast-forward unanswered attempts', checked: true }).waitFor();
  });

  it('Next retry and a ghost marker\'s Advance are disabled while forwarding is paused, saying why, and come back on Resume', async () => {
    const r = await serve({ receivers: [{ name: 'down', script: 500 }], destinations: [{ name: 'Down', enabled: true, url: 'receiver:down', retry: { schedule: [600_000], jitter: 0 } }] });
    const sent = await r.call<{ message: { id: number } }>('sendMessage', { type: 'track', call: { userId: 'u1', event: 'Held Order' } });
    await expect.poll(async () => (await r.call<Overview>('getOverview')).retrying, { timeout: 20_000 }).toBe(1);
    const page = await open(r, `#/live/${sent.message.id}`);
    const next = page.getByRole('group', { name: 'Time travel' }).getByRole('button', { name: 'Next retry' });
    await expect.poll(() => next.isEnabled()).toBe(true);
    await r.call('pauseForwarding');
    await expect.poll(() => next.getAttribute('aria-description')).toBe('Forwarding is paused: resume it to play the next retry');
    expect(await next.isDisabled()).toBe(true);
    // So is a ghost marker's Advance.
    const advance = page.getByRole('region', { name: 'Message details' }).getByRole('button', { name: 'Advance to attempt 2 (Down)' });
    expect(await advance.getAttribute('aria-description')).toBe('Forwarding is paused: resume it to play this retry');
    // And the card's "Next attempt in …" says the attempt waits for Resume, even once it is due.
    const card = page.getByRole('region', { name: 'Message details' }).getByRole('region', { name: 'Down' });
    await card.getByText(/Forwarding is paused: no attempt is made until you resume it\.$/).waitFor();
    await r.call('resumeForwarding');
    await expect.poll(() => next.isEnabled()).toBe(true);
    expect(await card.getByText(/Forwarding is paused/).count()).toBe(0);
  });

  it('after +1 min and Reset offset, the waiting retry is still due as far away, and its ghost marker moves back by the minute, without a reload', async () => {
    // One retry, 2 min after the first attempt, exactly (no jitter): far enough not to fall due during the test.
    const r = await serve({ receivers: [{ name: 'down', script: 500 }], destinations: [{ name: 'Down', enabled: true, url: 'receiver:down', retry: { schedule: [120_000], jitter: 0 } }] });
    const sent = await r.call<{ message: { id: number } }>('sendMessage', { type: 'track', call: { userId: 'u1', event: 'Late Order' } });
    const page = await open(r, `#/live/${sent.message.id}`);
    const details = page.getByRole('region', { name: 'Message details' });
    await details.getByRole('button', { name: /^Attempt 1: http_error, HTTP 500/ }).waitFor();
    const dueAt = async () => (await r.call<MessageDetail>('getMessage', { id: sent.message.id })).deliveries[0]!.nextAttemptAt!;
    /** Seconds in a countdown's words ("in 1 min 02 s", "in 1 min", "in 58 s"). */
    const seconds = (text: string | null) => {
      const found = /^Next attempt in (?:(\d+) min)? ?(?:(\d+) s)?(?:,|$)/.exec(text ?? '');
      return found ? Number(found[1] ?? 0) * 60 + Number(found[2] ?? 0) : NaN;
    };
    /** Seconds until attempt 2 as the delivery card counts them down. */
    const countdown = async () => seconds(await details.getByText(/^Next attempt in /).textContent());
    const ghost = (at: number) => details.getByRole('listitem', { name: new RegExp(`^Scheduled attempt 2 at ${formatClock(at)}, `) });

    const timeTravel = page.getByRole('group', { name: 'Time travel' });
    await timeTravel.getByRole('button', { name: '+1 min', exact: true }).click();
    await page.getByRole('group', { name: 'Engine clock' }).getByLabel('offset +1 min').waitFor();
    const before = await dueAt();
    await ghost(before).waitFor();
    await expect.poll(countdown).toBeLessThanOrEqual(61);

    await timeTravel.getByRole('button', { name: 'Reset offset' }).click();
    await page.getByRole('group', { name: 'Engine clock' }).getByLabel('real time').waitFor();
    // The server moved the retry back by the offset it took away; the pane follows at once.
    const after = await dueAt();
    expect(before - after).toBeGreaterThanOrEqual(59_000);
    await ghost(after).waitFor();
    await expect.poll(countdown).toBeLessThanOrEqual(61);
    const row = page.getByRole('grid', { name: 'Messages' }).getByRole('row').filter({ hasText: 'Late Order' });
    // So does the Live row's countdown.
    await expect.poll(async () => seconds(await row.getByTitle(/^Next attempt in /).getAttribute('title'))).toBeLessThanOrEqual(61);
  });

  it('the top bar keeps the keyboard focus: a time step, Reset offset and Forwarding are disabled while they run, and the focus comes back', async () => {
    const r = await serve({ receivers: [{ name: 'ok', script: 200 }], destinations: [{ name: 'Ok', enabled: true, url: 'receiver:ok' }] });
    const page = await open(r, '#/live');
    const bar = page.getByRole('banner');
    const focusedName = () => page.evaluate<string | null | undefined>('document.activeElement?.getAttribute("aria-label") ?? document.activeElement?.textContent');
    const step = bar.getByRole('button', { name: '+5 s', exact: true });
    await step.focus();
    await page.keyboard.press('Enter');
    await bar.getByLabel('offset +5 s').waitFor();
    await expect.poll(focusedName).toBe('+5 s');
    // Reset offset is disabled at real time: the focus goes to the next control that can take it.
    await bar.getByRole('button', { name: 'Reset offset' }).focus();
    await page.keyboard.press('Enter');
    await bar.getByLabel('real time').waitFor();
    await expect.poll(focusedName).toBe('Fast-forward unanswered attempts');
    const forwarding = bar.getByRole('switch', { name: 'Forwarding' });
    await forwarding.focus();
    await page.keyboard.press('Space');
    await expect.poll(() => forwarding.getAttribute('aria-checked')).toBe('false');
    await expect.poll(focusedName).toBe('Forwarding');
    await page.keyboard.press('Space');
    await expect.poll(() => forwarding.getAttribute('aria-checked')).toBe('true');
  });
});
