/**
 * The engine's half of a command: each feature folder's `commands.ts` fills a table of these for the
 * commands its contract table declares (main/contract/commands/<feature>.ts); a missing or extra command does
 * not compile. main/app/commands.ts gathers the tables, and main/app/commandHandlers.ts derives both faces
 * from them: the core's methods (`core.<name>(input)`: `run`, unmasked) and the typed API's handlers (`viaApi`,
 * or `run` with its answer masked).
 */
import type { CommandAnswer, CommandName, CommandOutput, CommandValue } from '../contract/api.js';
import type { CommandHandlers, CommandParsed } from '../contract/dispatch.js';
import type { Page } from '../contract/messages.js';
import { err, type Result } from '../contract/result.js';

export interface CommandImpl<K extends CommandName, Services> {
  /** What `core.<name>(input)` does once the input is parsed (main/contract/dispatch.ts): the services' answer, secrets in clear. */
  readonly run: (services: Services, input: CommandParsed<K>) => CommandAnswer<K>;
  /** Hides the secrets of a successful answer before it leaves through the typed API (main/domain/secrets.ts). */
  readonly mask?: (value: CommandValue<K>) => CommandValue<K>;
  /**
   * The typed API's handler, when it is more than `run` masked: it gets the input already validated and the
   * face's whole table (`api`), for what only the face knows (serve's URLs).
   */
  readonly viaApi?: (services: Services, input: CommandParsed<K>, api: CommandHandlers) => CommandOutput<K> | Promise<CommandOutput<K>>;
}

/** A feature's table: exactly the commands `Names`, over the services the feature needs. */
export type CommandImpls<Names extends CommandName, Services> = { readonly [K in Names]: CommandImpl<K, Services> };

/** A page's answer with each item masked; the page's other fields (a capture page's `limit`, `pruned`) are kept. */
export const maskItems =
  <T>(mask: (item: T) => T) =>
  <P extends Page<T>>(page: P): P => ({ ...page, items: page.items.map(mask) });

/** A masked value sent back where it cannot be the mask of the stored secret: it cannot be meant as a secret. */
export function maskedValueRefused(field: string): Result<never> {
  const name = field.slice(field.lastIndexOf('.') + 1);
  return err({ code: 'invalid_input', field, message: `${field}: this is a masked value, not a secret; send the secret itself, or leave ${name} out to keep it` });
}
