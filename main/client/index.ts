/**
 * `hookbench/client`: a TypeScript port of the Go v2 analytics client (docs/behaviour.md §11).
 *
 *   const client = new Client('WRITE_KEY', { endpoint: 'http://127.0.0.1:4400' });
 *   client.track({ userId: 'u1', event: 'Signed Up' });
 *   await client.close();
 */
export { Client, DEFAULTS, LIBRARY_NAME, libraryInfo } from './client.js';
export { ClientError } from './errors.js';
export type { ClientErrorCode, ClientErrorDetails, ServerError } from './errors.js';
export { debugEnabled } from './debug.js';
export type {
  AliasMessage,
  BackoffOptions,
  BatchBody,
  BatchMessage,
  CallType,
  ClientOptions,
  Clock,
  CommonFields,
  FetchInit,
  FetchLike,
  FetchResponse,
  GroupMessage,
  IdentifyMessage,
  Identity,
  LibraryInfo,
  Logger,
  PageMessage,
  Properties,
  ScreenMessage,
  Timers,
  TrackMessage,
} from './types.js';
