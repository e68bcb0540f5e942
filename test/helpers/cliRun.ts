/** Runs a CLI command in-process that waits for Ctrl-C (`tail`, `receive`, ...); the test's cleanup presses it. */
import { runCli, type CliDeps } from '../../main/cli/program.js';
import { captureIO, type CapturedIO } from './cliIO.js';
import { onCleanup } from './harness.js';

export function startCommand(argv: string[], deps: CliDeps): { c: CapturedIO; run: Promise<number> } {
  const c = captureIO();
  const run = runCli(argv, c.io, deps);
  onCleanup(async () => {
    c.abort();
    await run;
  });
  return { c, run };
}
