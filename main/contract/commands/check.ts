/** The typed API's commands that main/check/ answers (its handlers: main/check/commands.ts). How to declare one: ./command.ts. */
import { command, returns, returnsLater } from '../command.js';
import type { CheckRun, CheckRunSummary } from '../check/check.js';
import { getCheckRunInputSchema, listCheckRunsInputSchema, runCheckInputSchema } from '../check/checkInputs.js';
import type { Page } from '../messages.js';

export const CHECK_COMMANDS = {
  runCheck: command({
    input: runCheckInputSchema,
    answers: returnsLater<CheckRun>('CheckRun'),
    group: 'Check endpoint',
    summary: 'Runs the conformance battery (docs/check.md) and any user `scenarios` against `url`, signing with `secret` as the Webhooks destination does. Answers the run as it starts (`status: "running"`), or as it ended with `wait: true`; `checkRunStarted`, `checkFinished` (and, with `capacity`, `checkCapacityMeasured` once a second) and `checkRunFinished` follow. With `capacity: {seconds, expectRate?}` the run ends with `capacity.sustained-rate`: deliveries sent directly as the destination sends them (never through the engine) for `seconds` (1 to 300), 16 in flight; the run\'s `capacity` holds the figures. `status: "unreachable"` when nothing could be sent to the URL at all. The run is kept with the history (never its secret). `caFile` is read as a destination\'s (a regular PEM file of at most 4 MiB; a relative path from serve\'s working directory, named whole in errors); forging `sign` modes in `scenarios` need `secret`.',
    errors: ['conflict'],
  }),
  stopCheckRun: command({
    input: getCheckRunInputSchema,
    answers: returns<CheckRunSummary>('CheckRunSummary'),
    group: 'Check endpoint',
    summary: 'Stops a run in progress: nothing more is sent (a request already out is answered or times out), the check in progress gets no verdict, and the run finishes with the checks it has, its `error` saying it was stopped (`checkRunFinished` follows). Answers the run as it is at the stop. `conflict` when the run is not running.',
    errors: ['not_found', 'conflict'],
  }),
  getCheckRun: command({
    input: getCheckRunInputSchema,
    answers: returns<CheckRun>('CheckRun'),
    group: 'Check endpoint',
    summary: "One run: every check's verdict, detail, fix and evidence (requests and responses, with the attempt they were when sent through the engine), each check's `change` since the previous run of the same URL and `fixedSinceLastRun`.",
    errors: ['not_found'],
  }),
  listCheckRuns: command({
    input: listCheckRunsInputSchema,
    answers: returns<Page<CheckRunSummary>>('Page<CheckRunSummary>'),
    group: 'Check endpoint',
    summary: 'Check runs newest first, optionally of one `url`, without their checks.',
  }),
};
