/**
 * Wires the real process (argv, stdout/stderr, stdin, Ctrl-C) to runCli.
 * Ctrl-C once (or the reader of stdout gone, `| head`): the running command stops waiting, closes the core
 * cleanly and exits 1; twice: exit at once.
 */
import { processIO } from './io.js';
import { runCli } from './program.js';

const interrupt = new AbortController();
const stop = () => {
  if (interrupt.signal.aborted) process.exit(1);
  interrupt.abort();
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

process.exitCode = await runCli(process.argv.slice(2), processIO(interrupt.signal, stop));
