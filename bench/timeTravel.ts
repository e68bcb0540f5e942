/**
 * `npm run bench -- --only time-travel`: a +4 h clock jump over messages to an endpoint that accepts
 * connections and never answers (docs/behaviour.md §5), wall seconds, with 1 and with N messages, honest
 * (the destination's real 5 s timeout for every attempt) and with Fast-forward unanswered attempts (1 s).
 *
 * The endpoint answers each message's first request with a 503 at once, so that the live first attempts
 * cost nothing and only the jump is timed. An honest jump costs one real wait per round of one delivery's
 * schedule (about 7 for +4 h): N messages should take about the time one does.
 */
import { blackHole } from './blackHole.js';
import { createCore } from '../main/app/createCore.js';

export const JUMP_MS = 4 * 3_600_000;
/** N messages ÷ 1 message, honest: at most this (not slower because of how many messages it plays). */
export const HONEST_RATIO_TARGET = 1.5;
/** Fast-forward, N messages: at most this many seconds ("finishes in seconds"). */
export const FAST_FORWARD_TARGET_S = 15;

export interface JumpRun {
  messages: number;
  fastForward: boolean;
  wallSeconds: number;
  rounds: number;
  attemptsPlayed: number;
  /** Messages that ended failed (retry window exhausted), of `messages`. */
  failed: number;
  /** The most requests the endpoint held open at once. */
  maxOpen: number;
}

export interface TimeTravelResult {
  messages: number;
  runs: JumpRun[];
  /** Honest: N messages ÷ 1 message, wall time. */
  honestRatio: number;
  fastForwardSeconds: number;
}

async function jumpOnce(dataDir: string, messages: number, fastForward: boolean): Promise<JumpRun> {
  const hole = await blackHole(messages);
  const core = createCore({ dataDir, seed: 1 });
  try {
    const d = core.createDestination({ name: 'never answers', enabled: true, url: hole.url });
    if (!d.ok) throw new Error(d.error.message);
    const sent = core.sendMessages({ messages: Array.from({ length: messages }, (_, i) => ({ type: 'track' as const, call: { userId: `u${i}`, event: 'Jump' } })) });
    if (!sent.ok) throw new Error(sent.error.message);
    // The first attempts (503 at once) are recorded: every delivery waits for its first retry.
    for (;;) {
      await core.idle();
      const overview = core.getOverview();
      if (!overview.ok) throw new Error(overview.error.message);
      if (overview.value.retrying === messages) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    const started = performance.now();
    const jump = await core.advanceClock({ ms: JUMP_MS, fastForward });
    const wallSeconds = (performance.now() - started) / 1000;
    if (!jump.ok) throw new Error(jump.error.message);
    const counts = core.getOverview();
    if (!counts.ok) throw new Error(counts.error.message);
    return { messages, fastForward, wallSeconds, rounds: jump.value.rounds, attemptsPlayed: jump.value.attemptsPlayed, failed: counts.value.counts.failed, maxOpen: hole.maxOpen };
  } finally {
    await core.close();
    await hole.close();
  }
}

export async function runTimeTravel(messages: number, tempDir: (name: string, fn: (dir: string) => Promise<JumpRun>) => Promise<JumpRun>, log: (line: string) => void): Promise<TimeTravelResult> {
  const runs: JumpRun[] = [];
  for (const fastForward of [false, true]) {
    for (const n of [1, messages]) {
      const run = await tempDir('time-travel', (dir) => jumpOnce(dir, n, fastForward));
      log(
        `+4 h over ${n} ${n === 1 ? 'message' : 'messages'}, ${fastForward ? 'fast-forward' : 'honest'}: ${run.wallSeconds.toFixed(1)} s, ` +
          `${run.rounds} rounds, ${run.attemptsPlayed} attempts (at most ${run.maxOpen} open at once), ${run.failed}/${n} failed`,
      );
      runs.push(run);
    }
  }
  const find = (n: number, ff: boolean) => runs.find((r) => r.messages === n && r.fastForward === ff)!;
  return { messages, runs, honestRatio: find(messages, false).wallSeconds / find(1, false).wallSeconds, fastForwardSeconds: find(messages, true).wallSeconds };
}

export function printTimeTravel(result: TimeTravelResult, formatTable: (head: string[], body: string[][]) => string): void {
  console.log(`\ntime travel: +4 h over messages to an endpoint that never answers (first attempts answered 503; the default 5 s timeout)`);
  console.log(
    formatTable(
      ['mode', 'messages', 'wall s', 'rounds', 'attempts', 'max open', 'failed'],
      result.runs.map((r) => [r.fastForward ? 'fast-forward (1 s)' : 'honest (5 s)', String(r.messages), r.wallSeconds.toFixed(1), String(r.rounds), String(r.attemptsPlayed), String(r.maxOpen), `${r.failed}/${r.messages}`]),
    ),
  );
}
