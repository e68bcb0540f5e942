/**
 * Migration 011 and the check runs' repository: a populated version-10 database upgrades with its rows
 * kept; runs are compared with the previous finished run of their URL, paged newest first, pruned to the
 * newest CHECK_RUNS_KEPT, and a run left running by a stop is closed as interrupted.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../../../main/contract/check/check.js';
import { CHECK_RUNS_KEPT, CheckRunStore } from '../../../main/check/checkRunStore.js';
import { MIGRATIONS } from '../../../main/store/migrations/index.js';
import { openDb, schemaVersion } from '../../../main/store/openDb.js';
import { newDataDir } from '../../helpers/harness.js';

const options = { secretGiven: true, headers: {}, only: null, burst: 50, scenarios: 0, caFile: null };
const result = (id: string, verdict: CheckResult['verdict']): CheckResult => ({ id, title: id, area: 'shapes', verdict, detail: '', evidence: [], fix: null, change: null });

describe('check runs in the history database', () => {
  it('011 upgrades a populated version-10 database: its rows kept, check runs stored', () => {
    const file = join(newDataDir(), 'hookbench.db');
    const v10 = openDb(file, MIGRATIONS.slice(0, 10));
    v10.prepare("INSERT INTO settings (key, value) VALUES ('kept', 'yes')").run();
    v10.close();
    const db = openDb(file, MIGRATIONS.slice(0, 11));
    try {
      expect(schemaVersion(db)).toBe(11);
      expect(db.prepare("SELECT value FROM settings WHERE key = 'kept'").pluck().get()).toBe('yes');
      const runs = new CheckRunStore(db);
      const first = runs.insert({ url: 'http://a/hook', startedAt: Date.UTC(2026, 10, 26, 23, 0), total: 2, options });
      runs.setChecks(first, [result('shapes.track', 'pass'), result('signature.missing', 'fail')]);
      runs.finish(first, 'finished', null, Date.UTC(2026, 10, 26, 23, 1), 2);
      const other = runs.insert({ url: 'http://b/hook', startedAt: Date.UTC(2026, 10, 26, 23, 2), total: 1, options });
      const second = runs.insert({ url: 'http://a/hook', startedAt: Date.UTC(2026, 10, 26, 23, 3), total: 2, options });
      expect(runs.get(first)).toMatchObject({ status: 'finished', startedAt: '2026-11-26T23:00:00.000Z', finishedAt: '2026-11-26T23:01:00.000Z', summary: { passed: 1, failed: 1, warnings: 0 }, previousRunId: null });
      expect(runs.get(other)!.previousRunId).toBeNull();
      expect(runs.get(second)).toMatchObject({ status: 'running', previousRunId: first, checks: [] });
      expect(runs.list({ url: 'http://a/hook', beforeId: undefined, limit: 10 }).map((r) => r.id)).toEqual([second, first]);
      expect(runs.list({ url: undefined, beforeId: second, limit: 1 }).map((r) => r.id)).toEqual([other, first]);
      runs.abandonRunning(Date.UTC(2026, 10, 26, 23, 5));
      expect(runs.get(second)).toMatchObject({ status: 'finished', error: 'interrupted: Hookbench stopped during the run' });
    } finally {
      db.close();
    }
  });

  it('keeps a run\'s diagnosis in its JSON (no column of its own): answered with the run, not among its options', () => {
    const db = openDb(join(newDataDir(), 'hookbench.db'));
    try {
      const runs = new CheckRunStore(db);
      const plain = runs.insert({ url: 'http://a/hook', startedAt: 0, total: 1, options });
      const diagnosed = runs.insert({ url: 'http://a/hook', startedAt: 1, total: 1, options });
      const diagnosis = { mistake: 'python-json-dumps' as const, title: 'The receiver rejects valid signatures: …', fix: 'Verify the raw bytes.' };
      runs.setDiagnosis(diagnosed, diagnosis);
      expect(runs.get(plain)!.diagnosis).toBeNull();
      expect(runs.get(diagnosed)).toMatchObject({ diagnosis, options });
      expect(runs.list({ url: undefined, beforeId: undefined, limit: 10 }).map((r) => r.options)).toEqual([{ ...options, capacity: null }, { ...options, capacity: null }]);
    } finally {
      db.close();
    }
  });

  it(`keeps the newest ${CHECK_RUNS_KEPT} runs`, () => {
    const db = openDb(join(newDataDir(), 'hookbench.db'));
    try {
      const runs = new CheckRunStore(db);
      let last = 0;
      for (let i = 0; i < CHECK_RUNS_KEPT + 3; i++) last = runs.insert({ url: 'http://a/hook', startedAt: i, total: 0, options });
      expect(db.prepare('SELECT count(*) FROM check_runs').pluck().get()).toBe(CHECK_RUNS_KEPT);
      expect(db.prepare('SELECT min(id) FROM check_runs').pluck().get()).toBe(last - CHECK_RUNS_KEPT + 1);
    } finally {
      db.close();
    }
  });
});
