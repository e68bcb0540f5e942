/**
 * The Check screen against a real `hookbench serve`: a receiver that accepts any signature fails the signature
 * check, and its forged request links to the engine attempt that sent it; a mock endpoint answering by script
 * is told to turn on Refuse invalid signatures.
 * The Check endpoint buttons open the screen with the URL and the secret filled in. Driven by accessible
 * names; every wait is on UI state.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { checkReceiver, SECRET as RECEIVER_SECRET } from '../helpers/checkReceivers.js';
import { startReceiver } from '../helpers/receiver.js';
import { chromiumMissing } from './browser.js';
import { fillCheckForm, useWorkbench } from './workbench.js';

const SECRET = 'whsec_check_e2e_secret';

describe.skipIf(chromiumMissing)('Check', () => {
  const { serve, open } = useWorkbench();

  it('reports a failing signature check for a receiver that accepts anything, linked to its attempt', async () => {
    const receiver = await startReceiver(checkReceiver({ acceptsAnySignature: true }));
    onTestFinished(() => receiver.close());
    const r = await serve({});
    const url = receiver.url;
    const page = await open(r, '#/live');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Check' }).click();
    const form = await fillCheckForm(page, { url, secret: SECRET, only: 'signature.wrong-secret' });
    await form.getByRole('button', { name: 'Run checks' }).click();

    const report = page.getByRole('region', { name: 'Report' });
    await report.getByLabel('Summary').getByText('0 passed, 1 failed, 0 warnings').waitFor();
    const signature = report.getByRole('region', { name: 'Signature' });
    const item = signature.getByRole('listitem', { name: /^Failed: a request signed with another secret/ });
    expect(await item.innerText()).toMatch(/forged requests get in/);
    await item.getByRole('button', { expanded: false }).first().click();
    await item.getByRole('heading', { name: 'How to fix' }).waitFor();
    // The code that fixes it, in each of the five languages.
    const languages = item.getByRole('radiogroup', { name: 'Fix language' });
    expect(await languages.getByRole('radio').allInnerTexts()).toEqual(['Node', 'Python', 'Go', 'Ruby', 'PHP']);
    const link = item.getByRole('link', { name: /^Attempt #\d+ of message #\d+$/ });
    const href = await link.getAttribute('href');
    expect(href).toMatch(/^#\/live\/\d+\/attempt\/\d+$/);
    await link.click();
    const details = page.getByRole('region', { name: 'Message details' });
    await details.waitFor();
    expect(new URL(page.url()).hash).toBe(href);
    // The check sent it, not Compose, the API or the CLI.
    await details.getByText('none (sent by a check run: the Check screen or hookbench check)').waitFor();
    // The check sends it again, not Replay or Retry now: its destination is off between runs.
    expect(await details.getByRole('button', { name: 'Replay', exact: true }).isDisabled()).toBe(true);
    expect(await details.getByRole('button', { name: 'Retry now', exact: true }).isDisabled()).toBe(true);
    // The run is kept: it is listed among the previous runs and opens again.
    await page.goBack();
    await page.getByRole('region', { name: 'Previous runs' }).getByRole('button', { name: `Run #1: ${url}` }).waitFor();
  });

  it('Stop run ends a capacity run at once: the report keeps what finished and says the run was stopped', async () => {
    const receiver = await startReceiver(checkReceiver());
    onTestFinished(() => receiver.close());
    const r = await serve({});
    const page = await open(r, '#/check');
    const form = await fillCheckForm(page, { url: receiver.url, secret: RECEIVER_SECRET, only: 'shapes.track, capacity.sustained-rate' });
    await form.getByLabel('Capacity (seconds)').fill('300');
    await form.getByRole('button', { name: 'Run checks' }).click();
    const report = page.getByRole('region', { name: 'Report' });
    await report.getByLabel('Summary').getByText('1 passed, 0 failed, 0 warnings').waitFor();
    await report.getByRole('button', { name: 'Stop run' }).click();
    await report.getByRole('status', { name: 'Run ended early' }).getByText('Stopped before the end: 1 of 2 checks ran; capacity.sustained-rate was cut short and has no verdict.').waitFor();
    expect(await report.getByRole('button', { name: 'Stop run' }).count()).toBe(0);
    const runs = await r.call<{ items: { status: string }[] }>('listCheckRuns', {});
    expect(runs.items.map((run) => run.status)).toEqual(['finished']);
  });

  it("a mock receiver endpoint that answers by script fails the forged-request check, saying so, and its fix is the Refuse invalid signatures setting, not code", async () => {
    const r = await serve({ receivers: [{ name: 'any', secret: SECRET, script: 200 }] });
    const page = await open(r, '#/check');
    const form = await fillCheckForm(page, { url: `${r.info.receiverUrl}/r/any`, secret: SECRET, only: 'signature.wrong-secret' });
    await form.getByRole('button', { name: 'Run checks' }).click();
    const report = page.getByRole('region', { name: 'Report' });
    await report.getByLabel('Summary').getByText('0 passed, 1 failed, 0 warnings').waitFor();
    const item = report.getByRole('region', { name: 'Signature' }).getByRole('listitem', { name: /^Failed: a request signed with another secret/ });
    expect(await item.innerText()).toMatch(/mock receiver endpoint 'any' answers by its script whatever the signature/);
    await item.getByRole('button', { expanded: false }).first().click();
    await item.getByRole('heading', { name: 'How to fix' }).waitFor();
    expect(await item.innerText()).toMatch(/Turn on Refuse invalid signatures for receiver endpoint 'any'/);
    expect(await item.getByRole('radiogroup', { name: 'Fix language' }).count()).toBe(0);
  });

  it('a receiver that verifies with HMAC-SHA256 gets the Diagnosis first, above the checks it explains', async () => {
    const receiver = await startReceiver(checkReceiver({ signatureMistake: 'sha256' }));
    try {
      const r = await serve({});
      const page = await open(r, '#/check');
      const form = await fillCheckForm(page, { url: receiver.url, secret: RECEIVER_SECRET, only: 'status.valid-request, shapes.track, signature.wrong-secret' });
      await form.getByRole('button', { name: 'Run checks' }).click();

      const report = page.getByRole('region', { name: 'Report' });
      await report.getByLabel('Summary').getByText('1 passed, 2 failed, 0 warnings').waitFor();
      const diagnosis = report.getByRole('region', { name: 'Diagnosis' });
      await diagnosis.getByText('The receiver rejects valid signatures: it computes HMAC-SHA256, not HMAC-SHA1').waitFor();
      expect(await diagnosis.innerText()).toContain('The receiver accepted this one:');
      await diagnosis.getByRole('listitem', { name: 'probe: HMAC-SHA256 (hex)' }).waitFor();
      await diagnosis.getByRole('heading', { name: 'How to fix' }).waitFor();
      // It is the root cause: the first card of the report after its header, before every area.
      const order = await report.evaluate((el) => [...el.querySelectorAll(':scope > section')].map((s) => s.getAttribute('aria-label')));
      expect(order).toEqual(['Diagnosis', 'Shapes', 'Signature', 'Status semantics']);
      const track = report.getByRole('region', { name: 'Shapes' }).getByRole('listitem', { name: /^Failed: a track call gets a 2xx/ });
      expect(await track.innerText()).toContain('refused (HTTP 401): the receiver rejects valid signatures, see the diagnosis');
    } finally {
      await receiver.close();
    }
  });

  it('an ID no check has is said under Only these checks, in the form\'s words, and editing the field clears it', async () => {
    const r = await serve({});
    const page = await open(r, '#/check');
    const form = await fillCheckForm(page, { url: 'http://127.0.0.1:9/hook' });
    const only = form.getByLabel('Only these checks');
    await only.fill('signature.wrong, shapes.track');
    await form.getByRole('button', { name: 'Run checks' }).click();
    await form.locator('input[aria-invalid="true"]').waitFor();
    expect(await only.getAttribute('aria-invalid')).toBe('true');
    const describedBy = await only.getAttribute('aria-describedby');
    expect(await form.locator(`[id="${describedBy}"]`).textContent()).toBe('No check has the ID "signature.wrong": give IDs as a report shows them beside each check (shapes.track, signature.wrong-secret), or leave this empty for all');
    expect(await page.getByRole('alert').count()).toBe(0);
    await only.fill('signature.wrong-secret');
    expect(await only.getAttribute('aria-invalid')).toBeNull();
  });

  it('a run that could not reach its URL is not shown green: its summary and its Previous runs entry read as a failure', async () => {
    const closed = await startReceiver();
    const url = closed.url;
    await closed.close();
    const r = await serve({});
    const page = await open(r, '#/check');
    const form = await fillCheckForm(page, { url });
    await form.getByRole('button', { name: 'Run checks' }).click();
    const report = page.getByRole('region', { name: 'Report' });
    await report.getByText(/^Nothing was checked: cannot reach /).waitFor();
    const summary = report.getByLabel('Summary').getByText('0 passed, 0 failed, 0 warnings');
    expect(await summary.getAttribute('class')).toBe('text-err');
    const entry = page.getByRole('region', { name: 'Previous runs' }).getByRole('button', { name: `Run #1: ${url}` }).getByText('unreachable');
    expect(await entry.getAttribute('class')).toContain('text-err');
  });

  it('a second run of the same URL says what changed since the previous one: broken, fixed, or every verdict the same', async () => {
    const receiver = await startReceiver(checkReceiver());
    onTestFinished(() => receiver.close());
    const r = await serve({});
    const page = await open(r, '#/check');
    const form = await fillCheckForm(page, { url: receiver.url, secret: RECEIVER_SECRET, only: 'shapes.track, signature.wrong-secret' });
    const report = page.getByRole('region', { name: 'Report' });
    const runAs = async (id: number, summary: string) => {
      await form.getByRole('button', { name: 'Run checks' }).click();
      await report.getByText(`Run #${id} ·`).waitFor();
      await report.getByLabel('Summary').getByText(summary).waitFor();
    };
    await runAs(1, '2 passed, 0 failed, 0 warnings');
    expect(await report.getByLabel('Since last run').count()).toBe(0);

    // The receiver's next deploy verifies with HMAC-SHA256: the track call it accepted is refused now.
    receiver.respond = checkReceiver({ signatureMistake: 'sha256' });
    await runAs(2, '1 passed, 1 failed, 0 warnings');
    const since = report.getByLabel('Since last run');
    await since.getByText('Broken since last run: shapes.track').waitFor();
    expect(await since.innerText()).toContain('Compared with run #1, the last run of this URL:');
    expect(await since.getByRole('link', { name: 'run #1' }).getAttribute('href')).toBe('#/check/1');

    receiver.respond = checkReceiver();
    await runAs(3, '2 passed, 0 failed, 0 warnings');
    await since.getByText('Fixed since last run: shapes.track').waitFor();
    expect(await since.getByText(/Broken since last run/).count()).toBe(0);

    await runAs(4, '2 passed, 0 failed, 0 warnings');
    await since.getByText('Compared with run #3, the last run of this URL: every verdict is the same.').waitFor();
  });

  it('Check endpoint on a receiver endpoint and on a destination fills in the URL and the secret in clear', async () => {
    const r = await serve({
      receivers: [{ name: 'signed', script: 200, secret: SECRET }],
      destinations: [{ name: 'Orders', enabled: true, url: 'receiver:signed', sharedSecret: SECRET }],
    });
    const page = await open(r, '#/receiver/signed');
    await page.getByRole('button', { name: 'Check endpoint' }).click();
    const form = page.getByRole('form', { name: 'Check an endpoint' });
    await form.getByText('From receiver endpoint signed.').waitFor();
    expect(await form.getByLabel('URL', { exact: true }).inputValue()).toBe(`${r.info.receiverUrl}/r/signed`);
    expect(await form.getByLabel('Secret', { exact: true }).inputValue()).toBe(SECRET);

    await page.goto(`${r.info.uiUrl}#/destinations/Orders`);
    await page.getByRole('button', { name: 'Check endpoint' }).click();
    await form.getByText('From destination Orders.').waitFor();
    expect(await form.getByLabel('URL', { exact: true }).inputValue()).toBe(`${r.info.receiverUrl}/r/signed`);
    expect(await form.getByLabel('Secret', { exact: true }).inputValue()).toBe(SECRET);
  });

  it('a destination URL that answers masked cannot be checked until it is typed in full', async () => {
    const r = await serve({ destinations: [{ name: 'Partner', enabled: true, url: 'https://hooks.example.com/in?api_key=abcdef123456' }] });
    const page = await open(r, '#/destinations/Partner');
    await page.getByRole('button', { name: 'Check endpoint' }).click();
    const form = page.getByRole('form', { name: 'Check an endpoint' });
    const url = form.getByLabel('URL', { exact: true });
    await form.getByText('This URL is shown masked (••••): type it in full to check it.').waitFor();
    expect(await url.inputValue()).toContain('••••');
    expect(await form.getByRole('button', { name: 'Run checks' }).isDisabled()).toBe(true);
    await url.fill('https://hooks.example.com/in?api_key=abcdef123456');
    expect(await form.getByRole('button', { name: 'Run checks' }).isEnabled()).toBe(true);
  });
});
