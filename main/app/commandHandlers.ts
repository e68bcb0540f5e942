/**
 * The two faces of a core's commands, both derived from the handler table (./commands.ts): the core's own
 * methods (`core.sendMessage(input)`: the service's answer, secrets in clear, for the CLI and the tests), and
 * the typed API's handlers, which every transport (HTTP, Electron IPC, tests) runs through `dispatch` once it
 * has validated the input. What leaves through the typed API has its secrets masked (main/domain/secrets.ts);
 * `revealSecret` is the one way to see one.
 */
import type { CommandName, Commands } from '../contract/api.js';
import { COMMAND_NAMES } from '../contract/commands.js';
import type { CommandHandlers } from '../contract/dispatch.js';
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

/** The core's command methods over its services: each is its handler's `run`, answers unmasked. */
export function bindCommands(core: object, services: Services): Commands {
  servicesOf.set(core, services);
  const methods: Partial<Record<CommandName, (input?: unknown) => unknown>> = {};
  for (const name of COMMAND_NAMES) {
    const impl = implOf(name);
    // An absent input is an empty object, as dispatch makes it: `core.getClock()`.
    methods[name] = (input = {}) => impl.run(services, input);
  }
  return methods as Commands;
}

const masked = (result: Result<unknown>, mask: (value: unknown) => unknown): Result<unknown> => (result.ok ? { ok: true, value: mask(result.value) } : result);

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
