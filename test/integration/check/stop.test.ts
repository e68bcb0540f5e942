/**
 * Stopping a check run: Ctrl-C on `hookbench check` (in-process or through a running serve) and
 * stopCheckRun. Nothing more is sent, the check cut short has no verdict, and the run says so.
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServe } from '../../../main/cli/commands/serve.js';
import { runCli } from '../../../main/cli/program.js';
import type { CheckRun } from '../../../main/contract/check/check.js';
import { captureIO } from '../../helpers/cliIO.js';
import { checkReceiver, SECRET } from '../../helpers/checkReceivers.js';
import { newCore, newDataDir, newReceiver, onCleanup } from '../../helpers/harness.js';

const CAPACITY = ['--secret', SECRET, '--only', 'capacity.sustained-rate', '--capacity', '30'];
const CUT_SHORT = 'stopped before the end: 0 of 1 checks ran; capacity.sustained-rate was cut short and has no verdict';

describe('stopping a check run', () => {
  it('Ctrl-C stops an in-process run: exit 1, the report says which check was cut short, the throw-away data dir is gone', async () => {
    const r = await newReceiver(checkReceiver());
    const tmpRoot = mkdtempSync(join(tmpdir(), 'hookbench-stop-'));
    const c = captureIO();
    const run = runCli(['check', r.url, ...CAPACITY], c.io, { check: { tmpRoot } });
    await c.waitForOut('capacity: second 1 of 30');
    c.abort();
    expect(await run).toBe(1);
    expect(c.out()).toContain(CUT_SHORT);
    expect(c.out().trim().split('\n').at(-1)).toBe('0 passed, 0 failed, 0 warnings');
    const sent = r.captured.length;
    expect(sent).toBeGreaterThan(16);
    expect(readdirSync(tmpRoot)).toEqual([]);
  });

  it('Ctrl-C through a running serve stops the run there, with the checks that finished; the serve goes on', async () => {
    const r = await newReceiver(checkReceiver());
    const dataDir = newDataDir();
    const serve = await startServe({ dataDir, host: '127.0.0.1', port: 0, receiverPort: 0, receiverTlsPort: 0 }, { stdout: () => undefined, stderr: () => undefined });
    onCleanup(() => serve.stop());
    const c = captureIO();
    const run = runCli(['check', r.url, '--secret', SECRET, '--only', 'shapes.track,capacity.sustained-rate', '--capacity', '30', '--data-dir', dataDir], c.io);
    // Each check is printed as it finishes, through the serve too.
    await c.waitForOut('✓ shapes.track');
    await c.waitForOut('capacity: second 1 of 30');
    c.abort();
    expect(await run).toBe(1);
    expect(c.out()).toContain('stopped before the end: 1 of 2 checks ran; capacity.sustained-rate was cut short and has no verdict');
    const listed = serve.core.checks.listCheckRuns({});
    const kept = listed.ok ? serve.core.checks.getCheckRun({ id: listed.value.items[0]!.id }) : null;
    expect(kept?.ok && kept.value).toMatchObject({ status: 'finished', total: 1, summary: { passed: 1, failed: 0, warnings: 0 } });
    expect(kept?.ok && kept.value.checks.map((ch) => ch.id)).toEqual(['shapes.track']);
    expect(kept?.ok && kept.value.capacity?.series.length).toBeGreaterThanOrEqual(1);
    // The serve runs checks again at once: the stopped run no longer holds the capacity measurement.
    const again = await serve.core.checks.runCheck({ url: r.url, secret: SECRET, only: ['shapes.track'], wait: true });
    expect(again.ok && again.value.summary).toEqual({ passed: 1, failed: 0, warnings: 0 });
  });

  it('stopCheckRun: a run that is not running is a conflict, an unknown one not found; a second capacity run while one measures is refused', async () => {
    const r = await newReceiver(checkReceiver());
    const core = newCore();
    const measuring = await core.checks.runCheck({ url: r.url, secret: SECRET, only: ['capacity.sustained-rate'], capacity: { seconds: 300 } });
    const id = measuring.ok ? measuring.value.id : 0;
    const second = await core.checks.runCheck({ url: r.url, secret: SECRET, only: ['capacity.sustained-rate'], capacity: { seconds: 5 } });
    expect(second.ok ? null : second.error).toMatchObject({ code: 'conflict', field: 'capacity' });
    expect(second.ok ? '' : second.error.message).toContain(`check run #${id} measures capacity and is still running`);
    // A run without capacity may run beside it.
    expect((await core.checks.runCheck({ url: r.url, secret: SECRET, only: ['shapes.track'], wait: true })).ok).toBe(true);

    const finished = new Promise<void>((resolve) => core.onEvent((e) => e.type === 'checkRunFinished' && e.run.id === id && resolve()));
    expect(core.checks.stopCheckRun({ id })).toMatchObject({ ok: true, value: { id, status: 'running' } });
    await finished;
    const run = core.checks.getCheckRun({ id });
    expect(run.ok && (run.value as CheckRun)).toMatchObject({ status: 'finished', error: CUT_SHORT, checks: [] });
    expect(core.checks.stopCheckRun({ id })).toMatchObject({ ok: false, error: { code: 'conflict', field: 'id' } });
    expect(core.checks.stopCheckRun({ id: 9999 })).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });
});
