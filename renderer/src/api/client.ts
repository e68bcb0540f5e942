/**
 * The typed client: `api().call('retryNow', {id})` → `Result<value>`, typed by the contract's Commands.
 * Every error is reported (a toast names its message and field) unless the caller shows it itself.
 */
import type { CommandInput, CommandName, CommandOutput } from '../../../main/contract/api';
import type { ApiError, Result } from '../../../main/contract/result';
import { takeFirstCall } from './firstRequests';
import type { EventFrame, Transport } from './transport';

/** The value of a command's successful answer. */
export type CommandValue<K extends CommandName> = Extract<CommandOutput<K>, { ok: true }>['value'];

export interface CallOptions {
  /** The caller shows the error itself (e.g. inline, next to the field): no toast. */
  quiet?: boolean;
}

export interface ApiClient {
  readonly transport: Transport;
  call<K extends CommandName>(name: K, input: NonNullable<CommandInput<K>>, options?: CallOptions): Promise<Result<CommandValue<K>>>;
  subscribe(listener: (batch: EventFrame) => void): () => void;
}

export function createApiClient(transport: Transport, onError: (command: string, error: ApiError) => void): ApiClient {
  return {
    transport,
    async call(name, input, options) {
      // The page may have sent this very call before the app loaded (firstRequests.ts): its answer serves.
      const result = await (takeFirstCall(name, input) ?? transport.call(name, input));
      if (!result.ok && !options?.quiet) onError(name, result.error);
      // The server answers this command's Result (dispatch validated the input against its schema).
      return result as Result<CommandValue<typeof name>>;
    },
    subscribe: (listener) => transport.subscribe(listener),
  };
}
