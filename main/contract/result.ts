/**
 * Errors cross every boundary (IPC, HTTP, CLI) as values, never as thrown exceptions.
 * `field` names the input path (`webhooks[2].headers.Host`), `limit` the bound that was exceeded.
 */
export type ErrorCode =
  | 'invalid_input'
  | 'invalid_json'
  | 'invalid_timestamp'
  | 'missing_field'
  | 'missing_identity'
  | 'unknown_type'
  | 'unknown_field'
  | 'message_too_large'
  | 'request_too_large'
  /** A call's field nests deeper than LIMITS.maxDepth (400). */
  | 'nesting_too_deep'
  | 'invalid_config'
  /** The request itself could not be read as HTTP: bad framing, a header or URL too large, sent too slowly (400, 431, 408). */
  | 'invalid_request'
  | 'not_found'
  | 'conflict'
  | 'unauthorized'
  | 'data_dir_locked'
  /** The database cannot take writes: its file was deleted or replaced, or it is damaged (503). */
  | 'unavailable'
  | 'internal';

export interface ApiError {
  code: ErrorCode;
  message: string;
  field?: string;
  limit?: number;
  index?: number;
  value?: unknown;
  /** An input with several problems: each of the others, as its own error (the message counts them). */
  problems?: ApiError[];
}

export type Result<T, E = ApiError> = { ok: true; value: T } | { ok: false; error: E };

export const ok = <T>(value: T): { ok: true; value: T } => ({ ok: true, value });
export const err = (error: ApiError): { ok: false; error: ApiError } => ({ ok: false, error });

/** A thrown form of ApiError, for code paths (CLI, HTTP handlers) that unwind to one catch. */
export class HookbenchError extends Error {
  constructor(readonly error: ApiError) {
    super(error.message);
    this.name = 'HookbenchError';
  }
}
