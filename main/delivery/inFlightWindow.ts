/**
 * How many rounds the scheduler lets out at once: a window that follows what the webhooks can take
 * (Little's law: rounds in flight = rate × the time a round takes), between its two bounds.
 */

/** The window's default bounds (rounds in flight). Each round holds its body (at most 32 KiB) until recorded. */
export const MIN_IN_FLIGHT = 256;
export const MAX_IN_FLIGHT = 2_048;
/** How the window moves when it limits a tick's claim (see InFlightWindow.adapt). */
const GROW = 1.5;
const SHRINK = 0.9;
/** The share of a round's time spent waiting (for a connection, a thread) below which more window helps, and above which it only queues. */
const GROW_BELOW_WAITING = 0.3;
const SHRINK_ABOVE_WAITING = 0.6;

export class InFlightWindow {
  readonly min: number;
  readonly max: number;
  /** Rounds allowed in flight now, between min and max (see adapt). */
  size: number;
  /** Over the rounds finished since the last tick: their time from claim to result, and their requests' own time (ms). */
  private roundMs = 0;
  private requestMs = 0;
  private timedRounds = 0;
  /** No change of the window before this time: the rounds it let in must finish first to be judged. */
  private adaptAfter = 0;

  constructor(bounds: { minInFlight?: number | undefined; maxInFlight?: number | undefined }) {
    this.min = Math.max(1, bounds.minInFlight ?? Math.min(MIN_IN_FLIGHT, bounds.maxInFlight ?? MIN_IN_FLIGHT));
    this.max = Math.max(this.min, bounds.maxInFlight ?? MAX_IN_FLIGHT);
    this.size = this.min;
  }

  /** A round came back: its time from hand-over to result, and its slowest request's own time (ms). */
  timed(roundMs: number, requestMs: number): void {
    this.roundMs += roundMs;
    this.requestMs += requestMs;
    this.timedRounds++;
  }

  /**
   * Called once a tick: the window moves only when it limited this tick's claim (more may be due than it let
   * in). It grows when
   * - rounds finish faster than ticks come and most of the last ones are done (fewer than a quarter still
   *   out): the forwarder sat idle until this tick, so each tick must hand it more (a fast webhook; a
   *   fixed window of 256 made 256 per 20 ms tick, 12,800 a second, a ceiling on a fast machine), or
   * - rounds spend most of their time sending, not waiting for one of an origin's 16 connections
   *   (docs/behaviour.md §2): slow webhooks with free connections (a fixed window made 256 ÷ latency one).
   * It shrinks when rounds mostly wait for a connection and much is still out: a larger window would
   * only lengthen that queue (and hold more bodies). After a change it waits until the rounds claimed
   * under the new window have come back (the rounds finishing now were claimed a round's time ago), so
   * that it does not overshoot.
   */
  adapt(tick: { at: number; gapMs: number; outstanding: number; room: number; claimed: number }): void {
    const rounds = this.timedRounds;
    const meanRoundMs = rounds > 0 ? this.roundMs / rounds : 0;
    const waitingShare = rounds > 0 && this.roundMs > 0 ? Math.max(0, 1 - this.requestMs / this.roundMs) : 1;
    this.roundMs = 0;
    this.requestMs = 0;
    this.timedRounds = 0;
    const { at, gapMs, outstanding, room, claimed } = tick;
    if (room > 0 && claimed === room && rounds > 0 && at >= this.adaptAfter) {
      const before = this.size;
      const idleUntilTick = outstanding < this.size / 4 && meanRoundMs < gapMs;
      if (idleUntilTick || waitingShare < GROW_BELOW_WAITING) {
        this.size = Math.min(this.max, Math.ceil(this.size * GROW));
      } else if (waitingShare > SHRINK_ABOVE_WAITING && outstanding > this.size / 2) {
        this.size = Math.max(this.min, Math.floor(this.size * SHRINK));
      }
      if (this.size !== before) this.adaptAfter = at + 1.5 * meanRoundMs + gapMs;
    }
  }
}
