/**
 * A check run leaves the workbench as it was: the destinations, messages and attempts it sends through the
 * engine are the check's own. The user's lists, counters, failure rates, troubleshooting and event stream
 * answer exactly as before the run; the check's traffic is there when asked for (`origin: 'check'`) and its
 * report still opens its attempts.
 */
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../../main/app/createCore.js';
import type { EngineEvent } from '../../../main/contract/events.js';
import { fixSnippetsFor } from '../../../main/contract/check/checkFixes.js';
import { checkReceiver, SECRET } from '../../helpers/checkReceivers.js';
import { startServe } from '../../../main/cli/commands/serve.js';
import type { Overview } from '../../../main/contract/overview.js';
import { must, newCore, newDataDir, onCleanup, settled } from '../../helpers/harness.js';
import { startReceiver, type TestReceiver } from '../../helpers/receiver.js';
import { tempDir } from '../../helpers/tempDir.js';

let core: Core;
let receiver: TestReceiver;
let cleanup: () => void;

beforeAll(async () => {
  const dir = tempDir('hookbench-check-residue-');
  cleanup = dir.cleanup;
  core = createCore({ dataDir: dir.dir, forwarder: 'inline', checkTiming: { timeoutMs: 10_000, slowMs: 5_000 } });
  receiver = await startReceiver(checkReceiver());
});
afterAll(async () => {
  await core.close();
  await receiver.close();
  cleanup();
});

function value<T>(r: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** Everything of the user's that a run could have changed, as the typed API answers it. */
function userView(c: Core) {
  const overview = value(c.getOverview({}));
  const diagnostics = value(c.getDiagnostics({}));
  return {
    overview: {
      counts: overview.counts,
      totalMessages: overview.totalMessages,
      // Each counter's filter holds the hour's start, which moves with the clock: the counts are compared.
      messageCounters: Object.values(overview.messageCounters).map((c) => c.messages),
      inFlight: overview.inFlight,
      retrying: overview.retrying,
      failedLastHour: overview.failedLastHour,
      dueRetries: overview.dueRetries,
      acceptedLastMinute: overview.acceptedLastMinute,
    },
    problems: diagnostics.checks.filter((check) => check.state !== 'ok').map((check) => check.title),
    destinations: value(c.listDestinations({})).items.map((d) => [d.name, d.enabled, d.webhooks.map((w) => w.url)]),
    stats: value(c.listDestinationStats({})).items,
    usage: value(c.listSourceUsage({})).items.map((u) => ({ ...u, lastHour: u.lastHour })),
    messages: value(c.listMessages({})).items.map((m) => m.id),
    failed: value(c.listMessages({ delivery: 'failed' })).items.map((m) => m.id),
  };
}

describe('a check run leaves nothing behind', () => {
  it("changes none of the user's lists, counters, failure rates or troubleshooting; its traffic is the check's and its report opens its attempts", async () => {
    // A healthy setup: a source connected to a destination whose receiver verifies signatures.
    const source = value(core.createSource({ name: 'web', kind: 'server' }));
    value(core.createDestination({ name: 'orders', url: receiver.url, sharedSecret: SECRET, enabled: true, sources: [source.id] }));
    const sent = value(core.sendMessage({ type: 'track', source: 'web', call: { userId: 'u1', event: 'Signed Up' } }));
    await core.idle();
    expect(value(core.getMessage({ id: sent.message.id })).message.status).toBe('delivered');
    const before = userView(core);

    const events: EngineEvent[] = [];
    const off = core.onEvent((e) => events.push(e));
    const run = value(await core.checks.runCheck({ url: receiver.url, secret: SECRET, burst: 5, wait: true }));
    off();
    await core.idle();

    expect(run.checks.filter((c) => c.verdict !== 'pass').map((c) => [c.id, c.detail])).toEqual([]);
    expect(userView(core)).toEqual(before);
    // The user's event stream carried the run's own events only, none of its messages, deliveries or attempts.
    expect([...new Set(events.map((e) => e.type))].filter((t) => !t.startsWith('check'))).toEqual([]);

    // The forgeries the receiver refused went through the engine: the check's messages, failed, listed when asked for.
    const forged = run.checks.find((c) => c.id === 'signature.wrong-secret')!.evidence[0]!;
    expect(forged.attempt).not.toBeNull();
    const opened = value(core.getMessage({ id: forged.attempt!.messageId }));
    expect(opened.message.origin).toBe('check');
    expect(opened.attempts.map((a) => [a.id, a.statusCode])).toEqual([[forged.attempt!.attemptId, 401]]);
    const checkTraffic = value(core.listMessages({ origin: 'check' })).items;
    expect(checkTraffic.map((m) => m.id)).toContain(forged.attempt!.messageId);
    expect(checkTraffic.every((m) => m.origin === 'check')).toBe(true);
    expect(value(core.listDestinations({ owner: 'check' })).items.map((d) => [d.name, d.enabled])).toEqual([
      ['hookbench check', false],
      ['hookbench check (another secret)', false],
      ['hookbench check (unsigned)', false],
    ]);
  });

  it("in a workbench with no destination yet, the checklist and routing's preview answer as before: the check's messages and attempts are not the user's", async () => {
    const fresh = newCore({ forwarder: 'inline', checkTiming: { timeoutMs: 10_000, slowMs: 5_000 } });
    must(fresh.createSource({ name: 'app', kind: 'server' }));
    const checklist = () => must(fresh.getDiagnostics({})).checks.map((c) => [c.id, c.state, c.title, c.detail]);
    const before = checklist();
    expect(before.find(([id]) => id === 'destination.none')?.[1]).toBe('warning');

    must(await fresh.checks.runCheck({ url: receiver.url, secret: SECRET, only: ['shapes.track', 'signature.wrong-secret', 'status.valid-request'], wait: true }));
    await fresh.idle();

    const checkTraffic = must(fresh.listMessages({ origin: 'check' })).items.length;
    expect(checkTraffic).toBeGreaterThan(0);
    expect(checklist()).toEqual(before);
    // History's footer counts what is stored, and says how much of it the check's is (the list shows the user's).
    expect(must(fresh.getRetention({}))).toMatchObject({ messages: checkTraffic, checkMessages: checkTraffic });
    expect(must(fresh.listRoutingInputs({}))).toEqual({ looked: 0, items: [] });
  });

  it("a check's own message is not replayed: the replay would wait unseen for the check's destination, off between runs, counted as the user's", async () => {
    const run = value(await core.checks.runCheck({ url: receiver.url, secret: SECRET, only: ['signature.wrong-secret'], wait: true }));
    await core.idle();
    const before = userView(core);
    const id = run.checks[0]!.evidence[0]!.attempt!.messageId;
    const replayed = core.replayMessage({ id });
    expect(replayed.ok || replayed.error).toEqual({ code: 'conflict', field: 'id', message: `id: message ${id} is a check run's own message and is not replayed: run the check again to send it again` });
    expect(userView(core)).toEqual(before);
  });

  it('a call sent with no source and no destination never goes to a destination the check keeps for itself', async () => {
    const sent = value(core.sendMessage({ type: 'track', call: { userId: 'u2', event: 'Loose' } }));
    expect(sent.deliveries.map((d) => d.destinationName)).toEqual(['orders']);
  });

  it("a forgery the check sends on purpose to a mock endpoint is said to be one: no secret to share, no problem to troubleshoot, and useOneSecret refuses the check's destination", async () => {
    const mock = newCore({ forwarder: 'inline', checkTiming: { timeoutMs: 10_000, slowMs: 5_000 } });
    const { url } = await mock.receivers.start({ host: '127.0.0.1', port: 0, tlsPort: null });
    must(mock.createReceiver({ name: 'orders', secret: SECRET, script: 200 as never }));
    const problemsBefore = must(mock.getDiagnostics({})).checks.filter((c) => c.state !== 'ok').map((c) => c.title);
    const run = must(await mock.checks.runCheck({ url: `${url}/r/orders`, secret: SECRET, only: ['signature.wrong-secret', 'signature.missing'], wait: true }));
    const [wrongSecret, missing] = run.checks.map((c) => c.evidence[0]!.attempt!);
    const checks = [wrongSecret!, missing!].map((a) => must(mock.getMessage({ id: a.messageId })).receiverChecks?.map((c) => [c.verdict, c.explanation, c.secrets]));
    expect(checks).toEqual([
      [['invalid', "hookbench check sent this request with another secret on purpose (destination 'hookbench check (another secret)'): receiver endpoint 'orders' is right to find it invalid; nothing needs changing", null]],
      [['missing', "hookbench check sent this request without X-Signature on purpose (destination 'hookbench check (unsigned)'): receiver endpoint 'orders' is right to find it missing; nothing needs changing", null]],
    ]);
    expect(must(mock.getDiagnostics({})).checks.filter((c) => c.state !== 'ok').map((c) => c.title)).toEqual(problemsBefore);
    // Its capture names the destination that sent it, so the Receiver screen can say the same (checkForgery).
    const captured = must(mock.receivers.listCaptures({ receiver: 'orders' })).items.find((c) => c.attempt?.messageRef === wrongSecret!.messageId);
    expect(captured?.attempt?.destinationName).toBe('hookbench check (another secret)');
    const forger = must(mock.listDestinations({ owner: 'check' })).items.find((d) => d.name === 'hookbench check (another secret)')!;
    expect(mock.useOneSecret({ destinationId: forger.id, receiver: 'orders' })).toMatchObject({ ok: false, error: { code: 'conflict', field: 'destinationId' } });
    expect(must(mock.receivers.receiverSecret('orders'))).toBe(SECRET);
  });
});

describe("the check's direct requests to the workbench's own endpoint", () => {
  it('are captured as the check\'s (sentBy: check), forgeries and all; what the engine sends is its attempts\'', async () => {
    const mock = newCore({ forwarder: 'inline', checkTiming: { timeoutMs: 10_000, slowMs: 5_000 } });
    const { url } = await mock.receivers.start({ host: '127.0.0.1', port: 0, tlsPort: null });
    must(mock.createReceiver({ name: 'orders', secret: SECRET, script: 200 as never }));
    must(await mock.checks.runCheck({ url: `${url}/r/orders`, secret: SECRET, only: ['signature.tampered', 'signature.missing'], wait: true }));
    const captures = must(mock.receivers.listCaptures({ receiver: 'orders' })).items;
    // The tampered body goes directly (no destination can send it); the missing signature through the engine.
    const tampered = captures.find((c) => c.sentBy === 'check');
    expect(tampered).toMatchObject({ attempt: null, signature: { verdict: 'invalid' } });
    expect(captures.find((c) => c.attempt !== null)).toMatchObject({ sentBy: null, attempt: { destinationName: 'hookbench check (unsigned)' } });
    // Read back from the database, the same.
    expect(must(mock.receivers.getCapture({ id: tampered!.id })).sentBy).toBe('check');
  });
});

describe('lists follow the changes that other faces make', () => {
  it("announces catalogChanged when the user's destinations, sources and receiver endpoints change, and not for the destinations a tool keeps for itself", () => {
    const c = newCore({ autoStart: false });
    const changes: string[] = [];
    c.onEvent((e) => {
      if (e.type === 'catalogChanged') changes.push(e.catalog);
    });
    const source = must(c.createSource({ name: 'app', kind: 'web' }));
    const d = must(c.createDestination({ name: 'crm', url: 'http://127.0.0.1:9/hook', sources: [source.id] }));
    must(c.createDestination({ name: 'hookbench send', url: 'http://127.0.0.1:9/hook' }));
    must(c.updateDestination({ id: d.id, patch: { enabled: true } }));
    must(c.deleteSource({ id: source.id }));
    must(c.deleteDestination({ id: d.id }));
    must(c.createReceiver({ name: 'inbox', secret: null, script: 200 as never }));
    must(c.updateReceiver({ name: 'inbox', patch: { script: 500 as never } }));
    must(c.receivers.deleteReceiver({ name: 'inbox' }));
    expect(changes).toEqual(['sources', 'destinations', 'destinations', 'sources', 'destinations', 'destinations', 'receivers', 'receivers', 'receivers']);
  });
});

describe('the check against a mock receiver endpoint', () => {
  async function mockCore(refuseInvalidSignatures: boolean) {
    const mock = newCore({ forwarder: 'inline', checkTiming: { timeoutMs: 10_000, slowMs: 5_000 } });
    const { url } = await mock.receivers.start({ host: '127.0.0.1', port: 0, tlsPort: null });
    must(mock.createReceiver({ name: 'orders', secret: SECRET, refuseInvalidSignatures, script: 200 as never }));
    return { mock, url: `${url}/r/orders` };
  }

  it('with Refuse invalid signatures on, the endpoint is a correct receiver: every check passes', async () => {
    const { mock, url } = await mockCore(true);
    const run = must(await mock.checks.runCheck({ url, secret: SECRET, burst: 10, wait: true }));
    expect(run.checks.filter((c) => c.verdict !== 'pass').map((c) => [c.id, c.verdict, c.detail])).toEqual([]);
    expect(run.diagnosis).toBeNull();
  });

  it('named as receiver:<name>, every request of the run goes to the endpoint, those the check sends itself too; an endpoint that does not exist is refused, naming the URL', async () => {
    const { mock, url } = await mockCore(true);
    const run = must(await mock.checks.runCheck({ url: 'receiver:orders', secret: SECRET, burst: 10, wait: true }));
    expect(run.url).toBe(url);
    expect(run.checks.filter((c) => c.verdict !== 'pass').map((c) => [c.id, c.verdict, c.detail])).toEqual([]);
    const missing = await mock.checks.runCheck({ url: 'receiver:nosuch', secret: SECRET, wait: true });
    expect(missing).toMatchObject({ ok: false, error: { field: 'url', message: expect.stringMatching(/^url: receiver:nosuch: .*nosuch/) } });
  });

  it("a capacity run against it is answered by its script but not captured: the user's captures (and their verdicts) stay, and the script moves on", async () => {
    const { mock, url } = await mockCore(true);
    must(mock.createSource({ name: 'web', kind: 'web' }));
    must(mock.createDestination({ name: 'mine', enabled: true, url: 'receiver:orders', sharedSecret: SECRET, sources: ['web'] }));
    const mine = must(mock.sendMessage({ type: 'track', source: 'web', call: { userId: 'ada', event: 'Mine' } })).message.id;
    await settled(mock, mine);
    const before = must(mock.receivers.listCaptures({ receiver: 'orders' })).items;
    expect(before).toHaveLength(1);
    const answeredBefore = must(mock.getReceiver({ name: 'orders' })).answered;
    const run = must(await mock.checks.runCheck({ url, secret: SECRET, only: ['capacity.sustained-rate'], capacity: { seconds: 1 }, wait: true }));
    const delivered = run.capacity!.series.reduce((sum, s) => sum + s.deliveries, 0);
    expect(delivered).toBeGreaterThan(0);
    expect(must(mock.receivers.listCaptures({ receiver: 'orders' })).items.map((c) => c.id)).toEqual(before.map((c) => c.id));
    expect(must(mock.getReceiver({ name: 'orders' })).answered).toBeGreaterThanOrEqual(answeredBefore + delivered);
    expect(must(mock.listMessages({})).items.find((m) => m.id === mine)?.receiverVerdict).toBe('valid');
  });

  it('without it, the forged-request checks say the endpoint answers by its script whatever the signature, and how to turn checking on', async () => {
    const { mock, url } = await mockCore(false);
    const run = must(await mock.checks.runCheck({ url, secret: SECRET, only: ['signature.wrong-secret', 'signature.missing', 'shapes.track'], wait: true }));
    const forged = run.checks.filter((c) => c.area === 'signature');
    expect(forged.map((c) => c.verdict)).toEqual(['fail', 'fail']);
    for (const c of forged) {
      expect(c.detail).toContain("mock receiver endpoint 'orders' answers by its script whatever the signature");
      expect(c.fix).toContain('Refuse invalid signatures');
      // The fix is a setting: no code to verify signatures is offered for the workbench's own endpoint.
      expect(fixSnippetsFor(c.id, c.fix)).toBeNull();
    }
  });
});

describe('a check run through a running serve', () => {
  it("leaves getOverview, getDiagnostics and listDestinations as they were, over the typed API", async () => {
    const running = await startServe({ data: join(newDataDir(), 'data'), host: '127.0.0.1', port: 0, receiverPort: 0, receiverTlsPort: 0 }, { stdout: () => undefined, stderr: () => undefined });
    onCleanup(() => running.stop());
    const call = async <T>(name: string, input: unknown = {}): Promise<T> => {
      const answer = await request(`${running.info.url}/api/${name}`, { method: 'POST', headers: { authorization: `Bearer ${running.info.token}`, 'content-type': 'application/json' }, body: JSON.stringify(input) });
      const body = (await answer.body.json()) as { ok: boolean; value: T; error?: { message: string } };
      if (!body.ok) throw new Error(`${name}: ${body.error?.message}`);
      return body.value;
    };
    await call('createSource', { name: 'web', kind: 'server' });
    await call('createDestination', { name: 'orders', url: receiver.url, sharedSecret: SECRET, enabled: true, sources: ['web'] });
    const sent = await call<{ message: { id: number } }>('sendMessage', { type: 'track', source: 'web', call: { userId: 'u1', event: 'Signed Up' } });
    await expect.poll(async () => (await call<{ message: { status: string } }>('getMessage', { id: sent.message.id })).message.status).toBe('delivered');
    const view = async () => {
      const overview = await call<Overview>('getOverview');
      return {
        counts: overview.counts,
        counters: Object.values(overview.messageCounters).map((c) => c.messages),
        failedLastHour: overview.failedLastHour,
        retrying: overview.retrying,
        problems: (await call<{ checks: { state: string; title: string }[] }>('getDiagnostics')).checks.filter((c) => c.state !== 'ok').map((c) => c.title),
        destinations: (await call<{ items: { name: string; enabled: boolean }[] }>('listDestinations')).items.map((d) => [d.name, d.enabled]),
      };
    };
    const before = await view();
    const run = await call<{ checks: { id: string; verdict: string }[] }>('runCheck', { url: receiver.url, secret: SECRET, burst: 5, wait: true });
    expect(run.checks.filter((c) => c.verdict !== 'pass')).toEqual([]);
    expect(await view()).toEqual(before);
  });
});
