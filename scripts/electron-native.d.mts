// Types for scripts/electron-native.mjs (the tests import it).
export declare const ELECTRON_NATIVE_DIR: string;
export declare function electronNativeKey(version: string, platform?: string, arch?: string): string;
export declare function electronBindingPath(root: string, key: string): string;
export declare function buildEnv(env?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
export interface RebuildOptions {
  buildPath: string;
  electronVersion: string;
  arch: string;
  onlyModules: string[];
  force: boolean;
  mode: 'sequential';
}
export declare function ensureElectronSqlite(options: {
  root: string;
  electronVersion: string;
  force?: boolean;
  log?: (line: string) => void;
  rebuild?: (options: RebuildOptions) => Promise<unknown>;
}): Promise<string>;
