/**
 * Worker threads of the engine (the forwarder, the checkpointer). They run the compiled JavaScript beside
 * this file, or, when Hookbench runs from its TypeScript sources (tests, tsx), the source through tsx.
 */
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** `name` without extension, e.g. `forwarderWorker`. */
export function startEngineWorker(name: string, options: Pick<WorkerOptions, 'workerData'> = {}): Worker {
  if (!fileURLToPath(import.meta.url).endsWith('.ts')) return new Worker(new URL(`./${name}.js`, import.meta.url), options);
  const entry = new URL(`./${name}.ts`, import.meta.url).href;
  const boot = `import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(entry)}, ${JSON.stringify(entry)}))`;
  return new Worker(boot, { ...options, eval: true });
}
