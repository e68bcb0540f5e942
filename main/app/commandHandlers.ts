/**
 * The typed API's face of a core: one handler per command of the command table (main/contract/commands.ts),
 * bound to the core and the services beside it. Every transport (HTTP, Electron IPC, tests) runs these
 * through `dispatch`, which has validated the input first. What leaves here has its secrets masked
 * (main/domain/secrets.ts); `revealSecret` is the one way to see one.
 */
import type { CommandHandlers } from '../contract/dispatch.js';
import type { SendMessageOutput } from '../contract/api.js';
import type { Page } from '../contract/models.js';
import { err, type Result } from '../contract/result.js';
import {
  isMasked,
  maskCapture,
  maskDelivery,
  maskDestination,
  maskMessageDetail,
  maskMessageRecord,
  maskReceiver,
  maskSource,
  unmaskSecret,
  unmaskWebhooks,
} from '../domain/secrets.js';
import type { Core } from './createCore.js';

/** Commands a face answers itself (serve knows its URLs and token; the desktop app its window). */
export type FaceHandlers = Partial<CommandHandlers>;

const mapValue = <T, U>(result: Result<T>, fn: (value: T) => U): Result<U> => (result.ok ? { ok: true, value: fn(result.value) } : result);
/** A page with each item mapped; the page's other fields (a capture page's `limit`, `pruned`) are kept. */
const mapPage = <P extends Page<unknown>>(result: Result<P>, fn: (item: P['items'][number]) => P['items'][number]): Result<P> =>
  mapValue(result, (page) => ({ ...page, items: page.items.map(fn) }));

/** A message just sent, as every answer shows one: its call's credential members and its URLs masked. */
const maskSent = (v: SendMessageOutput): SendMessageOutput => ({ message: maskMessageRecord(v.message), deliveries: v.deliveries.map(maskDelivery) });

/** A masked value that is not the mask of the stored one cannot be meant as a secret. */
function maskedRefused(field: string): Result<never> {
  const name = field.slice(field.lastIndexOf('.') + 1);
  return err({ code: 'invalid_input', field, message: `${field}: this is a masked value, not a secret; send the secret itself, or leave ${name} out to keep it` });
}

export function createCommandHandlers(core: Core, face: FaceHandlers = {}): CommandHandlers {
  const { audiences, receivers, checks } = core;
  const handlers: CommandHandlers = {
    sendMessage: (input) => mapValue(core.sendMessage(input), maskSent),
    sendMessages: (input) => mapValue(core.sendMessages(input), (v) => v.map(maskSent)),
    listMessages: (input) => core.listMessages(input),
    getMessage: (input) => mapValue(core.getMessage(input), maskMessageDetail),
    retryNow: (input) => mapValue(core.retryNow(input), (v) => ({ deliveries: v.deliveries.map(maskDelivery) })),
    cancelMessage: (input) => mapValue(core.cancelMessage(input), (v) => ({ deliveries: v.deliveries.map(maskDelivery) })),
    replayMessage: (input) => mapValue(core.replayMessage(input), maskSent),
    exportMessages: (input) => core.exportMessages(input),
    importMessages: (input) => core.importMessages(input),
    getRetention: (input) => core.getRetention(input),
    setRetention: (input) => core.setRetention(input),
    // Where SDKs must send is known to the face (serve's URL), not to the core.
    getDiagnostics: async () => {
      const settings = face.getSettings ? await face.getSettings({}) : core.getSettings();
      return core.diagnose({ ingestUrl: settings.ok ? settings.value.ingestUrl : null });
    },
    explainMessage: (input) => core.explainMessage(input),
    advanceClock: (input) => core.advanceClock(input),
    advanceToNextRetry: (input) => core.advanceToNextRetry(input),
    cancelClockAdvance: (input) => core.cancelClockAdvance(input),
    resetClock: (input) => core.resetClock(input),
    getClock: (input) => core.getClock(input),
    setFastForward: (input) => core.setFastForward(input),
    getOverview: (input) => core.getOverview(input),
    pauseForwarding: (input) => core.pauseForwarding(input),
    resumeForwarding: (input) => core.resumeForwarding(input),
    getSettings: (input) => core.getSettings(input),
    rotateToken: (input) => core.rotateToken(input),
    revealSecret: (input) => core.revealSecret(input),
    useOneSecret: (input) => core.useOneSecret(input),
    listDestinations: (input) => mapPage(core.listDestinations(input), maskDestination),
    createDestination: (input) => mapValue(core.createDestination(input), maskDestination),
    updateDestination: (input) => {
      const current = core.findDestination(input.id);
      let patch = input.patch;
      if (current) {
        const sharedSecret = unmaskSecret(patch.sharedSecret, current.sharedSecret);
        if (typeof sharedSecret === 'string' && isMasked(sharedSecret)) return maskedRefused('patch.sharedSecret');
        // A webhook value still masked after this is refused where every save is checked (registry/registry.ts).
        const webhooks = patch.webhooks !== undefined ? unmaskWebhooks(patch.webhooks.map((w) => ({ url: w.url as string, headers: w.headers ?? {} })), current.webhooks) : undefined;
        patch = {
          ...patch,
          ...(patch.sharedSecret !== undefined ? { sharedSecret } : {}),
          ...(webhooks !== undefined ? { webhooks } : {}),
        };
      }
      return mapValue(core.updateDestination({ id: input.id, patch }), maskDestination);
    },
    deleteDestination: (input) => core.deleteDestination(input),
    listDestinationStats: (input) => core.listDestinationStats(input),
    listSources: (input) => mapPage(core.listSources(input), maskSource),
    createSource: (input) => mapValue(core.createSource(input), maskSource),
    updateSource: (input) => {
      const current = core.findSource(input.id);
      const writeKey = current ? unmaskSecret(input.patch.writeKey, current.writeKey) : input.patch.writeKey;
      if (typeof writeKey === 'string' && isMasked(writeKey)) return maskedRefused('patch.writeKey');
      return mapValue(core.updateSource({ id: input.id, patch: { ...input.patch, ...(writeKey ? { writeKey } : {}) } }), maskSource);
    },
    deleteSource: (input) => core.deleteSource(input),
    listSourceUsage: (input) => core.listSourceUsage(input),
    listIngestLog: (input) => core.listIngestLog(input),
    createDeletionRequest: (input) => core.createDeletionRequest(input),
    listDeletionRequests: (input) => core.listDeletionRequests(input),
    createAudience: (input) => audiences.createAudience(input),
    updateAudience: (input) => audiences.updateAudience(input),
    syncAudience: (input) => audiences.syncAudience(input),
    deleteAudience: (input) => audiences.deleteAudience(input),
    listAudiences: (input) => audiences.listAudiences(input),
    getAudience: (input) => audiences.getAudience(input),
    previewAudience: (input) => audiences.previewAudience(input),
    createComputedTrait: (input) => audiences.createComputedTrait(input),
    updateComputedTrait: (input) => audiences.updateComputedTrait(input),
    syncComputedTrait: (input) => audiences.syncComputedTrait(input),
    deleteComputedTrait: (input) => audiences.deleteComputedTrait(input),
    listReceivers: (input) => mapPage(receivers.listReceivers(input), maskReceiver),
    getReceiver: (input) => mapValue(receivers.getReceiver(input), maskReceiver),
    createReceiver: (input) => mapValue(receivers.createReceiver(input), maskReceiver),
    updateReceiver: (input) => {
      const stored = receivers.receiverSecret(input.name);
      const given = input.patch.secret;
      const secret = stored.ok && typeof given === 'string' ? unmaskSecret(given, stored.value) : given;
      if (typeof secret === 'string' && isMasked(secret)) return maskedRefused('patch.secret');
      return mapValue(receivers.updateReceiver({ name: input.name, patch: { ...input.patch, ...(given !== undefined ? { secret } : {}) } }), maskReceiver);
    },
    deleteReceiver: (input) => receivers.deleteReceiver(input),
    listCaptures: (input) => mapPage(receivers.listCaptures(input), maskCapture),
    getCapture: (input) => mapValue(receivers.getCapture(input), maskCapture),
    clearCaptures: (input) => receivers.clearCaptures(input),
    runCheck: (input) => checks.runCheck(input),
    getCheckRun: (input) => checks.getCheckRun(input),
    listCheckRuns: (input) => checks.listCheckRuns(input),
  };
  return { ...handlers, ...face };
}
