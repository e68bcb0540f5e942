/**
 * A service of a test's own, called as the core calls it: each command method's input is parsed first by
 * the command's schema (`withParsedInput`, main/contract/dispatch.ts), as `core.<name>()` and dispatch do,
 * since services take input already parsed. Its other members are the service's own. A refusal is answered
 * at once: it is for the services whose commands all do (audiences, the mock receiver).
 */
import type { CommandInput, CommandName } from '../../main/contract/api.js';
import { isCommandName } from '../../main/contract/commands.js';
import { withParsedInput } from '../../main/contract/dispatch.js';
import type { Result } from '../../main/contract/result.js';

type Method<K extends CommandName, R> = Record<never, never> extends CommandInput<K> ? (input?: CommandInput<K>) => R : (input: CommandInput<K>) => R;

export type Entered<S> = {
  [K in keyof S]: K extends CommandName ? (S[K] extends (input: never) => infer R ? Method<K, R> : S[K]) : S[K];
};

export function entered<S extends object>(service: S): Entered<S> {
  return new Proxy(service, {
    get(target, key) {
      const member: unknown = Reflect.get(target, key);
      if (typeof member !== 'function') return member;
      const method = member as (...args: unknown[]) => unknown;
      if (typeof key !== 'string' || !isCommandName(key)) return method.bind(target);
      return withParsedInput(key, (input) => method.call(target, input) as Result<unknown>);
    },
  }) as unknown as Entered<S>;
}
