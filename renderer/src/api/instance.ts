/** The session's API client, set once at start-up (app/session.ts) and read by the stores. */
import type { ApiClient } from './client';

let current: ApiClient | null = null;

export function setApi(client: ApiClient): void {
  current = client;
}

export function api(): ApiClient {
  if (!current) throw new Error('the API client is used before the session started');
  return current;
}
