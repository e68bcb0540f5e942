/**
 * TEMPORARY (branch desktop): stands in for the lead's main/contract/dispatch.ts (see /work/plan/CONTRACT.md)
 * until it lands on main. Delete this file after `git merge main` and import dispatch from there.
 */
import type { Result } from '../contract/result.js';
import type { ApiHandler } from '../server/httpServer.js';

export type CommandHandlers = Readonly<Record<string, ApiHandler>>;

export async function dispatch(handlers: CommandHandlers, name: string, input: unknown): Promise<Result<unknown>> {
  const handler = Object.hasOwn(handlers, name) ? handlers[name] : undefined;
  if (!handler) return { ok: false, error: { code: 'not_found', message: `unknown command "${name}"` } };
  try {
    return await handler(input);
  } catch (e) {
    return { ok: false, error: { code: 'internal', message: e instanceof Error ? e.message : String(e) } };
  }
}
