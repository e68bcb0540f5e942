/**
 * The destination `hookbench send` sends through, in a kept data dir or a running serve: one destination named
 * `hookbench send`, updated with each run's URLs, secret, headers, timeout and retry bounds, enabled while the
 * send runs and disabled after (it is connected to no source, so no other traffic reaches it). Reusing it keeps
 * the CLI's messages under one destination instead of one new destination per run.
 *
 * A send that runs at the same time finds it enabled (in use) and takes `hookbench send 2`, and so on.
 */
import { DEFAULT_RETRY_POLICY, DEFAULT_TIMEOUT_MS, SEND_DESTINATION, type Destination } from '../../../contract/destinations.js';
import { HookbenchError, type Result } from '../../../contract/result.js';
import type { DestinationInput, DestinationPatch } from '../../../contract/schemas.js';

export { SEND_DESTINATION };
const MAX_CONCURRENT_SENDS = 20;

/** The few destination commands used here, from a local core or a serve's typed API. */
export interface DestinationApi {
  list(): Promise<Destination[]>;
  create(input: DestinationInput): Promise<Result<Destination>>;
  update(id: string, patch: DestinationPatch): Promise<Result<Destination>>;
}

export type SendDestinationSettings = Omit<DestinationInput, 'name' | 'enabled' | 'sources'>;

/** Creates or takes over the `hookbench send` destination with these settings, enabled. */
export async function takeSendDestination(api: DestinationApi, settings: SendDestinationSettings): Promise<Result<Destination>> {
  const existing = await api.list();
  for (let n = 1; n <= MAX_CONCURRENT_SENDS; n++) {
    const name = n === 1 ? SEND_DESTINATION : `${SEND_DESTINATION} ${n}`;
    const found = existing.find((d) => d.name === name);
    const fresh: DestinationInput = { ...settings, name, enabled: true, sources: [] };
    if (!found) return api.create(fresh);
    if (found.enabled) continue; // another send is using it
    // Every setting is given in full, so nothing of an earlier run is left: an earlier cap on attempts is
    // taken away with null. Never replaced: deliveries may wait on it while it is off (an imported or replayed
    // copy of a send's message), and deleting a destination cancels them.
    const retry = { ...DEFAULT_RETRY_POLICY, schedule: [...DEFAULT_RETRY_POLICY.schedule], ...(settings.retry ?? {}), maxAttempts: settings.retry?.maxAttempts ?? null };
    return api.update(found.id, {
      enabled: true,
      sources: [],
      webhooks: settings.webhooks ?? [],
      sharedSecret: settings.sharedSecret ?? null,
      timeoutMs: settings.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      retry,
      caFile: null,
      filters: { allowEvents: [], blockEvents: [] },
    });
  }
  return {
    ok: false,
    error: {
      code: 'conflict',
      message: `destinations "${SEND_DESTINATION}" to "${SEND_DESTINATION} ${MAX_CONCURRENT_SENDS}" are all enabled (in use by other sends, or left so by a send that was killed): disable or delete some`,
    },
  };
}

/** A whole list, or the error it answered thrown (the destination commands' lists). */
export function listResult<T>(result: Result<T[]>): T[] {
  if (!result.ok) throw new HookbenchError(result.error);
  return result.value;
}
