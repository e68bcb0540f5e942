/**
 * The typed client: `api.call('retryNow', {id})` → `Result<value>`, typed by the contract. Every error is
 * reported (a toast names its message and field) unless the caller says it shows the error itself.
 */
import type { ApiError, Result } from '../../../main/contract/result';
import { createCompat, type Compat } from './compat';
import type { UiEvent } from './planned';
import type { EventBatch, Transport } from './transport';
import type { ApiInput, ApiName, ApiValue } from './types';

export interface CallOptions {
  /** The caller shows the error itself (e.g. inline, next to the field): no toast. */
  quiet?: boolean;
}

export interface UiBatch {
  events: UiEvent[];
  dropped: number;
}

export interface ApiClient {
  readonly transport: Transport;
  call<K extends ApiName>(name: K, input: ApiInput<K>, options?: CallOptions): Promise<Result<ApiValue<K>>>;
  /** Event batches in the UI's shapes (see planned.ts). */
  subscribe(listener: (batch: UiBatch) => void): () => void;
}

export function createApiClient(transport: Transport, onError: (command: string, error: ApiError) => void): ApiClient {
  const compat: Compat = createCompat(transport);
  return {
    transport,
    async call(name, input, options) {
      const result = await compat.call(name, input);
      if (!result.ok && !options?.quiet) onError(name, result.error);
      return result as Result<ApiValue<typeof name>>;
    },
    subscribe(listener) {
      return transport.subscribe((batch: EventBatch) => {
        listener({ events: compat.translate(batch.events), dropped: batch.dropped ?? 0 });
      });
    },
  };
}
