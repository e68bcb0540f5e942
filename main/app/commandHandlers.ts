/**
 * The two faces of a core's commands, both derived from the handler table (./commands.ts): the core's own
 * methods (`core.sendMessage(input)`: the service's answer, secrets in clear, for the CLI and the tests), and
 * the typed API's handlers, which every transport (HTTP, Electron IPC, tests) runs through `dispatch`. The
 * input is parsed once, where the command enters, by the one parse (`parseCommandInput`,
 * main/contract/dispatch.ts): the core's methods run it here, dispatch runs it before the API's handlers, so
 * bad input is refused alike whichever way it came. What leaves through the typed API has its secrets masked
 * (main/domain/secrets.ts); `revealSecret` is the one way to see one.
 */
import type { CommandName, Commands } from '../contract/api.js';
import { COMMAND_NAMES, COMMANDS } from '../contract/commands.js';
import { parseCommandInput, type CommandHandlers } from '../contract/dispatch.js';
import type { Result } from '../contract/result.js';
import type { CommandImpl } from '../platform/commandTable.js';
import { COMMAND_IMPLS } from './commands.js';
import type { Core } from './createCore.js';
import type { Services } from './services.js';

/** Commands a face answers itself (serve knows its URLs and token; the desktop app its window). */
export type FaceHandlers = Partial<CommandHandlers>;

/** One command's handlers with its types erased, for the loops below (the table's type checked each one). */
type AnyImpl = {
  run(services: Services, input: unknown): Result<unknown> | Promise<Result<unknown>>;
  mask?(value: unknown): unknown;
  viaApi?(services: Services, input: unknown, api: CommandHandlers): Result<unknown> | Promise<Result<unknown>>;
};
const implOf = (name: CommandName): AnyImpl => COMMAND_IMPLS[name] as CommandImpl<CommandName, Services> as unknown as AnyImpl;

/** The services behind each core, for its API face. */
const servicesOf = new WeakMap<object, Services>();

/**
 * The core's command methods over its services: each parses its input as dispatch does, then runs its
 * handler's `run` (answers unmasked). A refused input answers as the command does: a promise of the error
 * for a command that answers later (`advanceClock`), the error itself otherwise.
 */
export function bindCommands(core: object, services: Services): Commands {
  servicesOf.set(core, services);
  const methods: Partial<Record<CommandName, (input?: unknown) => unknown>> = {};
  for (const name of COMMAND_NAMES) {
    const { run } = implOf(name);
    const later = COMMANDS[name].answers.later;
    methods[name] = (input) => {
      const parsed = parseCommandInput(name, input);
      if (!parsed.ok) return later ? Promise.resolve(parsed) : parsed;
      return run(services, parsed.value);
    };
  }
  return methods as Commands;
}

const masked = (result: Result<unknown>, mask: (value: unknown) => unknown): Result<unknown> => (result.ok ? { ok: true, value: mask(result.value) } : result);

/** The typed API's handlers: dispatch hands each the input it has parsed; `run` is called here, never `core.<name>`, so nothing parses twice. */
export function createCommandHandlers(core: Core, face: FaceHandlers = {}): CommandHandlers {
  const services = servicesOf.get(core);
  if (!services) throw new Error('not a core made by createCore');
  const handlers: Partial<Record<CommandName, (input: unknown) => unknown>> = {};
  for (const name of COMMAND_NAMES) {
    const { run, mask, viaApi } = implOf(name);
    handlers[name] = viaApi
      ? (input) => viaApi(services, input, api)
      : mask
        ? (input) => {
            const answer = run(services, input);
            return answer instanceof Promise ? answer.then((r) => masked(r, mask)) : masked(answer, mask);
          }
        : (input) => run(services, input);
  }
  const api = { ...handlers, ...face } as CommandHandlers;
  return api;
}
