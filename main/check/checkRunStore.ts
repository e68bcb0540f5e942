/**
 * Check runs (migration 011): one row per run, its checks as one JSON array rewritten as each check
 * finishes. Times are stored as ms since the epoch (real time) and answered as ISO 8601. The run's
 * diagnosis is one more member of its `options` JSON (a run written before diagnoses has none: null), so
 * it needs no column of its own; so is its capacity measurement (`capacityResult`, rewritten once a second
 * while it runs: at most 300 seconds of figures).
 */
import type { CheckCapacity, CheckDiagnosis, CheckResult, CheckRun, CheckRunStatus, CheckRunSummary } from '../contract/check/check.js';
import { summarise } from '../contract/check/check.js';
import type { Db } from '../store/openDb.js';

interface Row {
  id: number;
  url: string;
  status: string;
  error: string | null;
  started_at: number;
  finished_at: number | null;
  total: number;
  previous_run_id: number | null;
  options: string;
  checks: string;
}

export interface NewCheckRun {
  url: string;
  startedAt: number;
  total: number;
  /** `capacity` left out: none asked for. */
  options: Omit<CheckRunSummary['options'], 'capacity'> & { capacity?: CheckRunSummary['options']['capacity'] };
}

/** The store keeps at most this many runs; the oldest go as new ones start. */
export const CHECK_RUNS_KEPT = 500;

export class CheckRunStore {
  private readonly statements;

  constructor(db: Db) {
    this.statements = {
      insert: db.prepare<[string, number, number, number | null, string], never>(
        "INSERT INTO check_runs (url, status, started_at, total, previous_run_id, options) VALUES (?, 'running', ?, ?, ?, ?)",
      ),
      previous: db.prepare<[string, number], { id: number }>("SELECT id FROM check_runs WHERE url = ? AND id < ? AND status = 'finished' ORDER BY id DESC LIMIT 1"),
      setPrevious: db.prepare<[number, number], never>('UPDATE check_runs SET previous_run_id = ? WHERE id = ?'),
      setChecks: db.prepare<[string, number], never>('UPDATE check_runs SET checks = ? WHERE id = ?'),
      setDiagnosis: db.prepare<[string, number], never>("UPDATE check_runs SET options = json_set(options, '$.diagnosis', json(?)) WHERE id = ?"),
      setCapacity: db.prepare<[string, number], never>("UPDATE check_runs SET options = json_set(options, '$.capacityResult', json(?)) WHERE id = ?"),
      finish: db.prepare<[string, string | null, number, number, number], never>('UPDATE check_runs SET status = ?, error = ?, finished_at = ?, total = ? WHERE id = ?'),
      get: db.prepare<[number], Row>('SELECT * FROM check_runs WHERE id = ?'),
      list: db.prepare<[number, number], Row>('SELECT * FROM check_runs WHERE id < ? ORDER BY id DESC LIMIT ?'),
      listOfUrl: db.prepare<[string, number, number], Row>('SELECT * FROM check_runs WHERE url = ? AND id < ? ORDER BY id DESC LIMIT ?'),
      prune: db.prepare<[number], never>('DELETE FROM check_runs WHERE id <= (SELECT id FROM check_runs ORDER BY id DESC LIMIT 1 OFFSET ?)'),
      // A run that was running when its process stopped never finishes: it is shown as it ended.
      abandon: db.prepare<[number], never>("UPDATE check_runs SET status = 'finished', error = 'interrupted: Hookbench stopped during the run', finished_at = ? WHERE status = 'running'"),
    };
  }

  /** A new run (status running), compared with the newest finished run of the same URL. */
  insert(run: NewCheckRun): number {
    const info = this.statements.insert.run(run.url, run.startedAt, run.total, null, JSON.stringify(run.options));
    const id = Number(info.lastInsertRowid);
    const previous = this.statements.previous.get(run.url, id);
    if (previous) this.statements.setPrevious.run(previous.id, id);
    this.statements.prune.run(CHECK_RUNS_KEPT);
    return id;
  }

  setChecks(id: number, checks: readonly CheckResult[]): void {
    this.statements.setChecks.run(JSON.stringify(checks), id);
  }

  setDiagnosis(id: number, diagnosis: CheckDiagnosis | null): void {
    this.statements.setDiagnosis.run(JSON.stringify(diagnosis), id);
  }

  setCapacity(id: number, capacity: CheckCapacity): void {
    this.statements.setCapacity.run(JSON.stringify(capacity), id);
  }

  /** `total`: the checks the run ended with (fewer than planned when the URL was unreachable or refused by TLS). */
  finish(id: number, status: Exclude<CheckRunStatus, 'running'>, error: string | null, finishedAt: number, total: number): void {
    this.statements.finish.run(status, error, finishedAt, total, id);
  }

  abandonRunning(now: number): void {
    this.statements.abandon.run(now);
  }

  get(id: number): CheckRun | null {
    const row = this.statements.get.get(id);
    return row ? toRun(row) : null;
  }

  /** Newest first, before `beforeId`; limit + 1 rows (paging.toPage). */
  list(input: { url?: string | undefined; beforeId: number | undefined; limit: number }): CheckRunSummary[] {
    const before = input.beforeId ?? Number.MAX_SAFE_INTEGER;
    const rows = input.url !== undefined ? this.statements.listOfUrl.all(input.url, before, input.limit + 1) : this.statements.list.all(before, input.limit + 1);
    return rows.map((r) => summaryOf(r, JSON.parse(r.checks) as CheckResult[]));
  }
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

type StoredOptions = Omit<CheckRunSummary['options'], 'capacity'> & { capacity?: CheckRunSummary['options']['capacity']; diagnosis?: CheckDiagnosis | null; capacityResult?: CheckCapacity };

function summaryOf(row: Row, checks: readonly CheckResult[]): CheckRunSummary {
  const { diagnosis: _diagnosis, capacityResult: _capacity, ...stored } = JSON.parse(row.options) as StoredOptions;
  // A run stored before capacity existed asked for none.
  const options = { ...stored, capacity: stored.capacity ?? null };
  return {
    id: row.id,
    url: row.url,
    status: row.status as CheckRunStatus,
    error: row.error,
    startedAt: iso(row.started_at)!,
    finishedAt: iso(row.finished_at),
    summary: summarise(checks),
    total: row.total,
    previousRunId: row.previous_run_id,
    options,
  };
}

function toRun(row: Row): CheckRun {
  const checks = JSON.parse(row.checks) as CheckResult[];
  const stored = JSON.parse(row.options) as StoredOptions;
  return {
    ...summaryOf(row, checks),
    checks,
    diagnosis: stored.diagnosis ?? null,
    fixedSinceLastRun: checks.filter((c) => c.change === 'fixed').map((c) => c.id),
    capacity: stored.capacityResult ?? null,
  };
}
