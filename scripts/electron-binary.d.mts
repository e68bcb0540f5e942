// Types for scripts/electron-binary.mjs (the tests import it).
export declare function findElectron(root: string, env?: NodeJS.ProcessEnv): { binary: string; version: string } | { binary: null; version: string | null; why: string };
