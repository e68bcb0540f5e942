// Types for scripts/launch-plan.mjs (the tests import it).
export declare function planStart(options: {
  root: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  ensure?: (options: { root: string; electronVersion: string; log: (line: string) => void }) => Promise<string>;
  log?: (line: string) => void;
}): Promise<{ desktop: boolean; command: string; args: string[]; env: NodeJS.ProcessEnv; note: string | null }>;
