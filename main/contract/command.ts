/**
 * How a command of the typed API is declared: once, in its feature's table (`main/contract/commands/<feature>.ts`),
 * with its input schema, its answer's type, and what docs/api.md says of it. Everything else about the command
 * is derived from the declaration (./commands.ts gathers the tables): the `Commands` type (./api.ts), the
 * validation table `dispatch` uses, the command names, docs/api.md, and the handler table each feature folder
 * of the engine must fill (main/platform/commandTable.ts).
 */
import type { z } from 'zod';
import type { ErrorCode } from './result.js';

/** The sections of docs/api.md, in its order. */
export const COMMAND_GROUPS = ['Messages', 'Clock and forwarding', 'Workbench', 'Destinations', 'Sources and ingestion', 'Deletion', 'Audiences', 'Mock receiver', 'Check endpoint'] as const;
export type CommandGroup = (typeof COMMAND_GROUPS)[number];

/** A command's answer: its value's type (for the compiler only), how docs/api.md writes it, and whether it is a promise. */
export interface Answer<T, Later extends boolean> {
  readonly text: string;
  readonly later: Later;
  /** Never set: carries the type. */
  readonly value?: T;
}

/** The command answers at once (`Result<T>`); `text` is the type as docs/api.md shows it. */
export const returns = <T>(text: string): Answer<T, false> => ({ text, later: false });
/** The command answers later (`Promise<Result<T>>`): it waits for engine work (a clock jump, a check run). */
export const returnsLater = <T>(text: string): Answer<T, true> => ({ text, later: true });

/** The input type callers give, when it is stricter than what the schema accepts (the schema's parsed output must fit it). */
export interface Takes<T> {
  /** Never set: carries the type. */
  readonly input?: T;
}
export const takes = <T>(): Takes<T> => ({});

export interface CommandDeclaration<S extends z.ZodType, In, Out, Later extends boolean> {
  /** What `dispatch` checks every input against before any handler runs; docs/api.md shows it as JSON Schema. */
  readonly input: S;
  readonly takes?: Takes<In>;
  readonly answers: Answer<Out, Later>;
  readonly group: CommandGroup;
  readonly summary: string;
  /** Error codes it can answer besides `invalid_input`. */
  readonly errors?: readonly ErrorCode[];
}

/** A declared command, with its types at hand for the derivations (./api.ts). */
export interface Command<S extends z.ZodType, In, Out, Later extends boolean> extends CommandDeclaration<S, In, Out, Later> {
  /** Never set: carries the types. */
  readonly types?: { input: In; value: Out; later: Later };
}

/**
 * Declares a command. Its input type is the schema's input type unless `takes` names a stricter one; either
 * way what the schema lets through (its output) must be of that type, or the declaration does not compile.
 */
export function command<S extends z.ZodType, Out, Later extends boolean, In = z.input<S>>(
  declaration: CommandDeclaration<S, In, Out, Later> & (z.output<S> extends In ? unknown : { takes: 'the schema lets through input that this type refuses' }),
): Command<S, In, Out, Later> {
  return declaration;
}
