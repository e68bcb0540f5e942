/**
 * The one way a command is run, whatever carried it (HTTP, Electron IPC, the CLI, tests): find the
 * command, validate its input with the command table's schema, call the handler, and turn anything it
 * throws into an error value. Errors cross every boundary as values (./result.ts).
 *
 * The input is validated in one place, `parseCommandInput`: dispatch runs it for the transports, and the
 * core's own methods (`core.<name>(input)`, main/app/commandHandlers.ts) run it for their callers. Past it,
 * nothing parses the command's input again: handlers and the services behind them take the schema's output
 * (`CommandParsed`), defaults filled and strings trimmed.
 */
import type { z } from 'zod';
import type { CommandName, CommandOutput } from './api.js';
import { commandSchemas, isCommandName, unknownCommandMessage } from './commands.js';
import { err, type Result } from './result.js';
import { parseWith } from './schemas.js';

/** A command's input as its schema lets it through: what every handler and service is given. */
export type CommandParsed<K extends CommandName> = z.output<(typeof commandSchemas)[K]>;

/** What a face binds to the table: one function per command, taking input already validated. */
export type CommandHandlers = {
  [K in CommandName]: (input: CommandParsed<K>) => CommandOutput<K> | Promise<CommandOutput<K>>;
};

/**
 * Checks a command's input against its schema: the error names the field, the rule and the limit
 * (./schemaErrors.ts). An absent input is an empty object: `getClock` needs none.
 */
export function parseCommandInput<K extends CommandName>(name: K, input: unknown): Result<CommandParsed<K>> {
  return parseWith(commandSchemas[name], input === undefined || input === null ? {} : input) as Result<CommandParsed<K>>;
}

/** `run` behind the command's parse: for what calls a service as a command enters it, outside the command tables. */
export function withParsedInput<K extends CommandName, R>(name: K, run: (input: CommandParsed<K>) => Result<R>): (input: unknown) => Result<R> {
  return (input) => {
    const parsed = parseCommandInput(name, input);
    return parsed.ok ? run(parsed.value) : parsed;
  };
}

export interface DispatchOptions {
  /** Told about a handler that threw (the caller gets `internal`); defaults to console.error. */
  onInternalError?: (name: string, error: unknown) => void;
}

export async function dispatch(handlers: CommandHandlers, name: string, input: unknown, options: DispatchOptions = {}): Promise<Result<unknown>> {
  if (typeof name !== 'string' || !isCommandName(name) || !Object.hasOwn(handlers, name)) {
    return err({ code: 'not_found', message: unknownCommandMessage(String(name)) });
  }
  const parsed = parseCommandInput(name, input);
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
