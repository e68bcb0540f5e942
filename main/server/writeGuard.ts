/**
 * The typed API's writes refuse, with 503 `unavailable`, while the database cannot keep them (its file was
 * deleted, replaced or is damaged, or this write did not fit on the disk: store/integrity.ts; docs/behaviour.md
 * §10). Reads still answer from
 * the open database. The file is checked before a write runs and after it (one stat each, cheap): a write
 * that went to a file that is no longer there is reported as refused, not as done.
 */
import type { CommandHandlers } from '../contract/dispatch.js';
import { err, type Result } from '../contract/result.js';
import { corruptionError, isCorruptionError, isWriteFailure, type DbHealth } from '../store/integrity.js';

type Handler = (input: unknown) => Result<unknown> | Promise<Result<unknown>>;

/** Commands that only read: they answer whatever the database's state. */
export function isReadCommand(name: string): boolean {
  return /^(list|get|reveal|export)[A-Z]/.test(name);
}

export function guardWrites(commands: CommandHandlers, health: DbHealth): CommandHandlers {
  const guarded: Record<string, Handler> = {};
  for (const [name, handler] of Object.entries(commands) as [string, Handler][]) {
    if (isReadCommand(name)) {
      guarded[name] = handler;
      continue;
    }
    guarded[name] = async (input) => {
      if (health.verify()) return err(health.problem!);
      let result: Result<unknown>;
      try {
        result = await handler(input);
      } catch (e) {
        if (isWriteFailure(e)) return err(health.writeFailed(e));
        if (!isCorruptionError(e)) throw e;
        health.fail(corruptionError(health.file, (e as Error).message));
        return err(health.problem!);
      }
      const problem = health.verify();
      return problem && result.ok ? err(problem) : result;
    };
  }
  return guarded as unknown as CommandHandlers;
}
