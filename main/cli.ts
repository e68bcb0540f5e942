#!/usr/bin/env node
/**
 * The `hookbench` executable. It checks the Node it runs on before loading anything that needs a newer one
 * (cli/runtime.ts), starts `serve` again with its memory settings where the platform can (cli/relaunch.ts),
 * then runs the CLI (cli/main.ts).
 */
import { runtimeProblem } from './cli/runtime.js';
import { serveRelaunch } from './cli/relaunch.js';

const problem = runtimeProblem(process.versions.node);
if (problem) {
  console.error(problem);
  process.exit(2);
}
const relaunch = serveRelaunch(process);
// process.execve exists on Linux and macOS (Node ≥ 22.15); elsewhere serve runs with V8's defaults.
if (relaunch && typeof process.execve === 'function') process.execve(relaunch.file, relaunch.args, relaunch.env);
await import('./cli/main.js');
