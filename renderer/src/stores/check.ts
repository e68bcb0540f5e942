/**
 * The Check screen's state: the form (prefilled when opened from a destination or a receiver endpoint), the
 * run shown (filled in live from checkFinished events), and the previous runs. The secret stays in memory
 * only: it is never put in the URL.
 */
import { create } from 'zustand';
import type { CheckCapacity, CheckResult, CheckRun, CheckRunSummary } from '../../../main/contract/check/check';
import type { EngineEvent } from '../../../main/contract/events';
import { CHECK_RUNS_PAGE } from '../api/firstRequests';
import { api } from '../api/instance';
import { useRouter } from './router';

export interface CheckForm {
  url: string;
  secret: string;
  /** Check IDs, comma-separated (empty: the whole battery). */
  only: string;
  /** Seconds of capacity measurement as typed (empty: none), and the expected deliveries per second (empty: none). */
  capacity?: string;
  expectRate?: string;
  /** Where the form was filled from, and what the user must still do (a masked URL to type in clear). */
  note: string | null;
  /** The stored run the form was filled from, when that run was signed: its secret was never kept, so running it again as it stands runs unsigned. */
  unsignedRerunOf?: number | null;
}

interface CheckState {
  form: CheckForm;
  run: CheckRun | null;
  runs: CheckRunSummary[];
  runsLoaded: boolean;
  starting: boolean;
  error: string | null;
  /** Why the server refused Only these checks (an ID no check has), said under that field; cleared when it is edited. */
  onlyError: string | null;
  setForm(patch: Partial<CheckForm>): void;
  /** Fills the form (from a destination or a receiver endpoint) and closes the report of another URL. */
  prefill(form: Omit<CheckForm, 'only' | 'unsignedRerunOf'>): void;
  /** Starts a run with the form; answers its id (null when the input was refused: see `error`). */
  start(): Promise<number | null>;
  open(id: number): Promise<void>;
  /** Stops the run in progress (stopCheckRun); its end comes as checkRunFinished. */
  stop(id: number): Promise<void>;
  /** The run a stop was asked for and has not ended yet. */
  stopping: number | null;
  loadRuns(): Promise<void>;
  apply(events: EngineEvent[]): void;
}

/** `signature.wrong-secret, shapes.track` → the IDs; empty → undefined (the whole battery). */
export function parseOnly(text: string): string[] | undefined {
  const ids = text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  return ids.length ? ids : undefined;
}

/**
 * The form's capacity fields as runCheck's `capacity` (undefined: none asked for); the schema's own limits
 * answer a bad value, named by its field.
 */
export function capacityOf(form: Pick<CheckForm, 'capacity' | 'expectRate'>): { seconds: number; expectRate?: number } | undefined {
  const seconds = (form.capacity ?? '').trim();
  if (seconds === '') return undefined;
  const rate = (form.expectRate ?? '').trim();
  return { seconds: Number(seconds), ...(rate !== '' ? { expectRate: Number(rate) } : {}) };
}

/** Of two readings of a run's capacity (a fetch and the events), the one further on. */
function newer(a: CheckCapacity | null, b: CheckCapacity | null): CheckCapacity | null {
  if (!a || !b) return a ?? b;
  if (a.finished !== b.finished) return a.finished ? a : b;
  return b.series.length > a.series.length ? b : a;
}

/** Checks merged by ID, the later one winning, in the order they first arrived. */
function mergeChecks(a: CheckResult[], b: CheckResult[]): CheckResult[] {
  const byId = new Map(a.map((c) => [c.id, c]));
  for (const c of b) byId.set(c.id, c);
  return [...byId.values()];
}

function upsertSummary(runs: CheckRunSummary[], run: CheckRunSummary): CheckRunSummary[] {
  const rest = runs.filter((r) => r.id !== run.id);
  return [run, ...rest].sort((x, y) => y.id - x.id);
}

const summaryOf = (run: CheckRun): CheckRunSummary => {
  const { checks: _checks, fixedSinceLastRun: _fixed, diagnosis: _diagnosis, capacity: _capacity, ...summary } = run;
  return summary;
};

export const useCheck = create<CheckState>((set, get) => ({
  form: { url: '', secret: '', only: '', note: null },
  run: null,
  runs: [],
  runsLoaded: false,
  starting: false,
  stopping: null,
  error: null,
  onlyError: null,
  setForm(patch) {
    // Where the form came from ("From receiver endpoint inbox.") stops being true once its URL or secret is changed.
    const changed = (patch.url !== undefined && patch.url !== get().form.url) || (patch.secret !== undefined && patch.secret !== get().form.secret);
    set((s) => ({ form: { ...s.form, ...(changed ? { note: null, unsignedRerunOf: null } : {}), ...patch }, ...(patch.only !== undefined && patch.only !== s.form.only ? { onlyError: null } : {}) }));
  },
  prefill(form) {
    set((s) => ({ form: { ...s.form, ...form, only: '', unsignedRerunOf: null }, error: null, onlyError: null, run: s.run?.url === form.url ? s.run : null }));
  },
  async start() {
    const { url, secret, only } = get().form;
    set({ starting: true, error: null, onlyError: null });
    const ids = parseOnly(only);
    const capacity = capacityOf(get().form);
    const result = await api().call('runCheck', { url: url.trim(), ...(secret !== '' ? { secret } : {}), ...(ids ? { only: ids } : {}), ...(capacity ? { capacity } : {}) }, { quiet: true });
    if (!result.ok) {
      // An unknown ID is the field's problem: said under it in the form's words, not as the API's only[0] with the CLI's --list.
      const bad = /^only\[(\d+)\]$/.exec(result.error.field ?? '');
      const id = bad ? ids?.[Number(bad[1])] : undefined;
      if (id !== undefined) set({ starting: false, onlyError: `No check has the ID "${id}": give IDs as a report shows them beside each check (shapes.track, signature.wrong-secret), or leave this empty for all` });
      else set({ starting: false, error: result.error.message });
      return null;
    }
    const run = result.value;
    // Events of this run may have arrived before its id was known: keep what the events brought too.
    set((s) => {
      const live = s.run?.id === run.id ? s.run : null;
      return { starting: false, run: { ...run, checks: mergeChecks(run.checks, live?.checks ?? []), capacity: newer(run.capacity, live?.capacity ?? null) }, runs: upsertSummary(s.runs, summaryOf(run)) };
    });
    if (run.status === 'running') void get().open(run.id);
    return run.id;
  },
  async open(id) {
    const result = await api().call('getCheckRun', { id }, { quiet: true });
    if (!result.ok) {
      set({ error: result.error.message });
      return;
    }
    const run = result.value;
    set((s) => {
      const live = s.run?.id === id && run.status === 'running' ? s.run.checks : [];
      // A run opened from the list fills an empty form, so it can be run again (its secret is never kept).
      const signed = run.options.secretGiven;
      const note = signed ? `Run #${run.id} was signed with a secret, which was not stored: type it, or this run goes unsigned (the forged-request checks become one warning).` : null;
      const form = s.form.url === '' ? { ...s.form, url: run.url, only: run.options.only?.join(', ') ?? '', capacity: run.options.capacity ? String(run.options.capacity.seconds) : '', expectRate: run.options.capacity?.expectRate != null ? String(run.options.capacity.expectRate) : '', note, unsignedRerunOf: signed ? run.id : null } : s.form;
      return { run: { ...run, checks: mergeChecks(live, run.checks), capacity: newer(run.capacity, s.run?.id === id ? s.run.capacity : null) }, error: null, form };
    });
  },
  async stop(id) {
    set({ stopping: id });
    const result = await api().call('stopCheckRun', { id }, { quiet: true });
    // A run that ended meanwhile has nothing to stop: its report is what it finished with.
    if (!result.ok) set({ stopping: null, ...(result.error.code === 'conflict' ? {} : { error: result.error.message }) });
  },
  async loadRuns() {
    const result = await api().call('listCheckRuns', { limit: CHECK_RUNS_PAGE }, { quiet: true });
    if (result.ok) set({ runs: result.value.items, runsLoaded: true });
  },
  apply(events) {
    let refetch: number | null = null;
    for (const event of events) {
      if (event.type === 'checkRunStarted') set((s) => ({ runs: upsertSummary(s.runs, event.run) }));
      else if (event.type === 'checkFinished') {
        set((s) => {
          const runs = s.runs.map((r) => (r.id === event.runId ? { ...r, summary: event.summary } : r));
          if (s.run?.id !== event.runId) return { runs };
          return { runs, run: { ...s.run, summary: event.summary, diagnosis: event.diagnosis, checks: mergeChecks(s.run.checks, [event.check]) } };
        });
      } else if (event.type === 'checkCapacityMeasured') {
        set((s) => (s.run?.id === event.runId ? { run: { ...s.run, capacity: event.capacity } } : {}));
      } else if (event.type === 'checkRunFinished') {
        set((s) => ({ runs: upsertSummary(s.runs, event.run), stopping: s.stopping === event.run.id ? null : s.stopping }));
        if (get().run?.id === event.run.id) refetch = event.run.id;
      }
    }
    // The finished run's own record adds what events do not carry (fixed since last run).
    if (refetch !== null) void get().open(refetch);
  },
}));

/** Opens the Check screen with the form filled in (from a destination or a receiver endpoint). */
export function openCheck(form: Omit<CheckForm, 'only' | 'unsignedRerunOf'>): void {
  useCheck.getState().prefill(form);
  useRouter.getState().navigate({ view: 'check', sub: [] });
}
