/**
 * The oldest Node the engine runs on: better-sqlite3 13 is a Node-API 10 addon (Node ≥ 22.14) and crashes on
 * older runtimes instead of failing cleanly, so the CLI checks first. This file imports nothing, so that it
 * loads on any Node.
 */
export const MINIMUM_NODE = '22.14.0';

/** One line naming the version needed and the one found, or null when this Node is new enough. */
export function runtimeProblem(found: string, minimum: string = MINIMUM_NODE): string | null {
  const parse = (v: string) => v.replace(/^v/, '').split('.').map((n) => Number.parseInt(n, 10) || 0);
  const [a, b] = [parse(found), parse(minimum)];
  for (let i = 0; i < 3; i++) {
    if ((a[i] ?? 0) > (b[i] ?? 0)) return null;
    if ((a[i] ?? 0) < (b[i] ?? 0)) {
      return `hookbench needs Node ${minimum} or newer and this is Node ${found.replace(/^v/, '')}: run it as \`npx hookbench\` from the project (npm uses the Node 24 it installs), or install Node 24.`;
    }
  }
  return null;
}
