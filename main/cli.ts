#!/usr/bin/env node
/**
 * The `hookbench` executable. It checks the Node it runs on before loading anything that needs a newer one
 * (cli/runtime.ts), then runs the CLI (cli/main.ts).
 */
import { runtimeProblem } from './cli/runtime.js';

const problem = runtimeProblem(process.versions.node);
if (problem) {
  console.error(problem);
  process.exit(2);
}
await import('./cli/main.js');
