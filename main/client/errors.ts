import type { BatchMessage, CallType } from './types.js';

/**
 * Why a ClientError was raised.
 * Thrown at the call: `missing_field`, `invalid_message`, `message_too_large`, `closed`; at construction:
 * `invalid_option`. Passed to `onError` for a dropped batch: `rejected` (a 4xx other than 429, or a 3xx:
 * not retried) and `delivery_failed` (network errors, timeouts, 5xx or 429 until the retries ran out).
 */
export type ClientErrorCode =
  | 'missing_field'
  | 'invalid_message'
  | 'message_too_large'
  | 'closed'
  | 'invalid_option'
  | 'rejected'
  | 'delivery_failed';

/** The `error` member of a refusal from the collection service (docs/behaviour.md §7). */
export interface ServerError {
  code?: string;
  message?: string;
  index?: number;
  field?: string;
  limit?: number;
}

export interface ClientErrorDetails {
  code: ClientErrorCode;
  /** The call that was refused (thrown errors). */
  call?: CallType;
  /** The field at fault: `event`, `userId`, `groupId`, `previousId`, `timestamp`, ... */
  field?: string;
  /** Size in bytes of the refused message's JSON (`message_too_large`). */
  size?: number;
  /** The limit that was exceeded, in bytes. */
  limit?: number;
  /** HTTP status of the last response, when there was one. */
  status?: number;
  /** The last response body: parsed JSON when it was JSON, else its text. */
  body?: unknown;
  /** The server's `error` object, when the body carried one. */
  serverError?: ServerError;
  /** Attempts made for a dropped batch. */
  attempts?: number;
  /** The messages of a dropped batch, as they were sent. */
  messages?: readonly BatchMessage[];
  cause?: unknown;
}

export class ClientError extends Error {
  override readonly name = 'ClientError';
  readonly code: ClientErrorCode;
  readonly call?: CallType;
  readonly field?: string;
  readonly size?: number;
  readonly limit?: number;
  readonly status?: number;
  readonly body?: unknown;
  readonly serverError?: ServerError;
  readonly attempts?: number;
  readonly messages?: readonly BatchMessage[];

  constructor(message: string, details: ClientErrorDetails) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    const { cause: _cause, ...rest } = details;
    this.code = rest.code;
    if (rest.call !== undefined) this.call = rest.call;
    if (rest.field !== undefined) this.field = rest.field;
    if (rest.size !== undefined) this.size = rest.size;
    if (rest.limit !== undefined) this.limit = rest.limit;
    if (rest.status !== undefined) this.status = rest.status;
    if (rest.body !== undefined) this.body = rest.body;
    if (rest.serverError !== undefined) this.serverError = rest.serverError;
    if (rest.attempts !== undefined) this.attempts = rest.attempts;
    if (rest.messages !== undefined) this.messages = rest.messages;
  }
}
