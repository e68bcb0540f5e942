/** The typed API's commands that main/control/ answers (its handlers: main/control/commands.ts). How to declare one: ./command.ts. */
import { z } from 'zod';
import { command, returns, returnsLater } from '../command.js';
import { API_LIMITS, noInput } from '../commandInputs.js';
import { describeValue } from '../message/messageBody.js';
import type { ClockAdvance, ClockState, ClockStatus, Overview, Settings } from '../overview.js';
import { wrongType } from '../zodWords.js';

export const CONTROL_COMMANDS = {
  advanceClock: command({
    input: z.strictObject({
      ms: z
        // Only a value that is no number gets this sentence; a number out of bounds is said with its bound and value (zodWords).
        .number({ error: (issue) => (issue.code === 'invalid_type' && issue.input !== undefined ? `must be a number of milliseconds (got ${describeValue(issue.input)})` : undefined) })
        .int('must be a whole number of milliseconds')
        .min(0)
        .max(API_LIMITS.advanceMs, { error: (issue) => `must be at most one year (${API_LIMITS.advanceMs.toLocaleString('en-US')} ms; got ${Number(issue.input).toLocaleString('en-US')})` }),
      fastForward: z.boolean({ error: wrongType('must be true or false') }).optional(),
    }),
    answers: returnsLater<ClockAdvance>('ClockAdvance'),
    group: 'Clock and forwarding',
    summary: 'Moves engine time forward and plays every attempt that falls due on the way, in time order; answers when they have finished, or at once when cancelClockAdvance or resetClock interrupts it (`cancelled: true`). `fastForward` (default: the setFastForward setting) ends a jump\'s attempts that have no response headers after 1 s of real time as `timeout`, marked fast-forwarded.',
  }),
  advanceToNextRetry: command({
    input: noInput,
    answers: returnsLater<ClockAdvance>('ClockAdvance'),
    group: 'Clock and forwarding',
    summary: 'Moves engine time to the next waiting attempt and plays it; `conflict` when no attempt waits, or while forwarding is paused (it would play nothing).',
    errors: ['conflict'],
  }),
  cancelClockAdvance: command({
    input: noInput,
    answers: returns<ClockStatus>('ClockStatus'),
    group: 'Clock and forwarding',
    summary: 'Stops the clock jump in progress (and any queued behind it) where it got to; its attempts in flight finish and are recorded. Answers at once; nothing to stop is not an error.',
  }),
  resetClock: command({
    input: noInput,
    answers: returnsLater<ClockState>('ClockState'),
    group: 'Clock and forwarding',
    summary: 'Back to real time (offset 0), interrupting a jump in progress; waiting deliveries keep their distance to now, work already due stays due.',
  }),
  getClock: command({
    input: noInput,
    answers: returns<ClockStatus>('ClockStatus'),
    group: 'Clock and forwarding',
    summary: 'Engine time, its offset from real time, the Fast-forward unanswered attempts setting and the jump in progress.',
  }),
  setFastForward: command({
    input: z.strictObject({ enabled: z.boolean({ error: wrongType('must be true or false') }) }),
    answers: returns<ClockStatus>('ClockStatus'),
    group: 'Clock and forwarding',
    summary: 'Turns **Fast-forward unanswered attempts** on or off (kept in the data dir; off by default): during a jump, an attempt with no response headers after 1 s of real time ends as `timeout`, its error saying it was fast-forwarded.',
  }),
  getOverview: command({
    input: noInput,
    answers: returns<Overview>('Overview'),
    group: 'Clock and forwarding',
    summary: 'Messages per status and in all, deliveries in flight, the retry backlog, the clock and whether forwarding is paused. `messageCounters` are the top bar\'s counters, in messages (in flight, retrying, with a delivery failed in the last hour), each with the listMessages filter that lists exactly the messages it counted.',
  }),
  pauseForwarding: command({
    input: noInput,
    answers: returns<{ paused: boolean }>('{ paused: true }'),
    group: 'Clock and forwarding',
    summary: 'Holds forwarding (kept across restarts): accepted messages wait, queued; rounds in flight finish.',
  }),
  resumeForwarding: command({
    input: noInput,
    answers: returns<{ paused: boolean }>('{ paused: false }'),
    group: 'Clock and forwarding',
    summary: 'Forwarding runs again.',
  }),
  getSettings: command({
    input: noInput,
    answers: returns<Settings>('Settings'),
    group: 'Workbench',
    summary: 'The data dir, the database file and its size, versions, and (under serve) the URLs to use.',
  }),
  rotateToken: command({
    input: noInput,
    answers: returns<{ token: string; uiUrl: string | null }>('{ token: string; uiUrl: string | null }'),
    group: 'Workbench',
    summary: 'A new API token for this data dir; the old one stops working at once (reload the UI with the new uiUrl).',
  }),
};
