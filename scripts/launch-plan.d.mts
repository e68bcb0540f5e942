// Types for scripts/launch-plan.mjs (the tests import it).
export declare function planStart(options: {
  root: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
}): { desktop: boolean; command: string; args: string[]; env: NodeJS.ProcessEnv; note: string | null };
