/**
 * `hookbench serve` runs for days and takes bursts of a million calls, and two defaults are made for short,
 * busy programs: V8 sizes each thread's young generation from the machine's memory and grows it while
 * allocation is fast, and glibc gives each thread that calls malloc an arena of its own, kept once grown.
 * Neither can be changed once the process runs, so serve starts itself again at once, in the same process
 * (`process.execve`: same pid, same stdio), with both set (docs/architecture.md, Memory). This file imports
 * nothing, so that the entry point can call it before loading the CLI.
 */

/** V8 flags serve runs with: semi-spaces of at most 4 MiB (a young generation of 8), in every thread. */
export const SERVE_V8_FLAGS: readonly string[] = ['--max-semi-space-size=4'];
/** glibc's malloc arenas for serve's threads (the main thread's, and one more they share). */
export const SERVE_MALLOC_ARENA_MAX = '2';
/** Set in the environment of the process started again; set it yourself (to anything) to keep the defaults. */
export const RELAUNCHED_ENV = 'HOOKBENCH_SERVE_RELAUNCHED';

export interface ProcessFacts {
  argv: readonly string[];
  execArgv: readonly string[];
  execPath: string;
  env: Readonly<Record<string, string | undefined>>;
  platform: string;
}

/** How serve starts itself again, or null when it runs as it is. */
export interface Relaunch {
  file: string;
  args: string[];
  env: Record<string, string>;
}

/**
 * The relaunch of `hookbench serve` with serve's memory settings, or null: for every other command, once
 * relaunched (or when RELAUNCHED_ENV is set), under a debugger (it would attach to the process that is
 * replaced), and when the settings are given already (a flag in execArgv or NODE_OPTIONS is kept as given).
 */
export function serveRelaunch(p: ProcessFacts): Relaunch | null {
  if (p.argv[2] !== 'serve') return null;
  if (p.env[RELAUNCHED_ENV] !== undefined) return null;
  const given = [...p.execArgv, ...(p.env.NODE_OPTIONS ?? '').split(/\s+/)];
  if (given.some((a) => a.startsWith('--inspect'))) return null;
  const flags = SERVE_V8_FLAGS.filter((flag) => !given.some((a) => a.split('=')[0] === flag.split('=')[0]));
  const arenas = p.platform === 'linux' && p.env.MALLOC_ARENA_MAX === undefined;
  if (flags.length === 0 && !arenas) return null;
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(p.env)) if (v !== undefined) env[k] = v;
  env[RELAUNCHED_ENV] = '1';
  if (arenas) env.MALLOC_ARENA_MAX = SERVE_MALLOC_ARENA_MAX;
  return { file: p.execPath, args: [p.execPath, ...flags, ...p.execArgv, ...p.argv.slice(1)], env };
}
