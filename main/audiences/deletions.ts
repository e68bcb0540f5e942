/**
 * Deletion requests (docs/behaviour.md §8): one `delete` message per affected source (the sources that
 * have seen the user, or those named), to every enabled destination connected to it; the request and its
 * messages are stored in one transaction.
 */
import type { SendMessageOutput } from '../contract/api.js';
import type { CommandParsed } from '../contract/dispatch.js';
import type { DeletionRequest } from '../contract/messages.js';
import type { Source } from '../contract/sources.js';
import { err, ok, type Result } from '../contract/result.js';
import { atomically } from '../store/atomically.js';
import type { Store } from '../store/store.js';
import type { AcceptEntry, Intake } from '../ingestion/intake.js';
import type { Registry } from '../registry/registry.js';

export interface DeletionRequestsOptions {
  store: Pick<Store, 'queries' | 'deletions' | 'transaction'>;
  clock: { now(): number };
  registry: Registry;
  intake: Intake;
  /** A transaction rolled back: the registry's copies are read again. */
  rolledBack: () => void;
  /** Forgets what these sources reported of the user (traits) and what audiences sent them (audienceStore.ts). */
  forgetUser: (sourceIds: readonly string[], userId: string) => void;
}

export class DeletionRequests {
  constructor(private readonly options: DeletionRequestsOptions) {}

  createDeletionRequest(input: CommandParsed<'createDeletionRequest'>): Result<{ request: DeletionRequest; messages: SendMessageOutput[] }> {
    const { userId } = input;
    const { registry, store } = this.options;
    let sources: Source[];
    if (input.sources !== undefined) {
      sources = [];
      for (const [i, ref] of input.sources.entries()) {
        const src = registry.findSource(ref);
        if (!src) return err(registry.noSuchSource(`sources[${i}]`, ref));
        // A source named twice (by name and by id, say) is one source: one delete message.
        if (!sources.includes(src)) sources.push(src);
      }
    } else {
      sources = store.queries.sourcesThatSaw(userId).flatMap((id) => registry.findSource(id) ?? []);
      if (sources.length === 0) {
        return err({ code: 'not_found', field: 'userId', message: `userId: no source has seen "${userId}"; name the sources to notify (sources: [...] in the API, --source NAME with hookbench delete-user)` });
      }
    }
    const entries = sources.map(
      (source): AcceptEntry => ({
        type: 'delete',
        call: { userId },
        source,
        destinations: undefined,
        strict: true,
        clientIp: null,
        fieldPrefix: undefined,
        at: (f) => f,
        recordsTraits: false,
      }),
    );
    return atomically(
      (fn) => store.transaction(fn),
      () => {
        const sent = this.options.intake.acceptEntries(entries);
        if (!sent.ok) return sent;
        const request: DeletionRequest = {
          id: 0,
          userId,
          createdAt: this.options.clock.now(),
          sourceIds: sources.map((src) => src.id),
          messageIds: sent.value.map((m) => m.message.id),
        };
        request.id = store.deletions.insertDeletionRequest(request);
        // Deleted downstream, the user is no audience's member any more: no sync sends them an identify again.
        this.options.forgetUser(request.sourceIds, userId);
        return ok({ request, messages: sent.value });
      },
      this.options.rolledBack,
    );
  }
}
