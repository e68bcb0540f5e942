/**
 * The one way a command is run, whatever carried it (HTTP, Electron IPC, the CLI, tests): find the
 * command, validate its input with the command table's schema, call the handler, and turn anything it
 * throws into an error value. Errors cross every boundary as values (./result.ts).
 */
import type { CommandInput, CommandName, CommandOutput } from './api.js';
import { commandSchemas, isCommandName } from './commands.js';
import { err, type Result } from './result.js';
import { parseWith } from './schemas.js';

/** What a face binds to the table: one function per command, taking input already validated. */
export type CommandHandlers = {
  [K in CommandName]: (input: CommandInput<K>) => CommandOutput<K> | Promise<CommandOutput<K>>;
};

export interface DispatchOptions {
  /** Told about a handler that threw (the caller gets `internal`); defaults to console.error. */
  onInternalError?: (name: string, error: unknown) => void;
}

export async function dispatch(handlers: CommandHandlers, name: string, input: unknown, options: DispatchOptions = {}): Promise<Result<unknown>> {
  if (typeof name !== 'string' || !isCommandName(name) || !Object.hasOwn(handlers, name)) {
    return err({ code: 'not_found', message: `unknown command "${String(name)}"` });
  }
  // An absent input is an empty object: `getClock` needs none.
  const parsed = parseWith(commandSchemas[name], input === undefined || input === null ? {} : input);
  if (!parsed.ok) return parsed;
  const handler = handlers[name] as (input: unknown) => Result<unknown> | Promise<Result<unknown>>;
  try {
    return await handler(parsed.value);
  } catch (e) {
    (options.onInternalError ?? defaultReport)(name, e);
    return err({ code: 'internal', message: `${name} failed: internal error (${e instanceof Error ? e.message : String(e)})` });
  }
}

/** The contract has neither Node's nor the DOM's types; both have a console. */
const console_ = (globalThis as { console?: { error(...args: unknown[]): void } }).console;

function defaultReport(name: string, error: unknown): void {
  console_?.error(`hookbench: command ${name} failed`, error);
}
