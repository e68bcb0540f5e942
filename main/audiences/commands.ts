/** The handlers of the commands main/contract/commands/audiences.ts declares (how: main/platform/commandTable.ts). */
import type { AUDIENCES_COMMANDS } from '../contract/commands/audiences.js';
import { maskSent } from '../ingestion/commands.js';
import type { CommandImpls } from '../platform/commandTable.js';
import type { AudienceService } from './audienceService.js';
import type { DeletionRequests } from './deletions.js';

export const audienceCommands = {
  createAudience: { run: (s, input) => s.audiences.createAudience(input) },
  updateAudience: { run: (s, input) => s.audiences.updateAudience(input) },
  syncAudience: { run: (s, input) => s.audiences.syncAudience(input) },
  deleteAudience: { run: (s, input) => s.audiences.deleteAudience(input) },
  listAudiences: { run: (s, input) => s.audiences.listAudiences(input) },
  getAudience: { run: (s, input) => s.audiences.getAudience(input) },
  previewAudience: { run: (s, input) => s.audiences.previewAudience(input) },
  createComputedTrait: { run: (s, input) => s.audiences.createComputedTrait(input) },
  updateComputedTrait: { run: (s, input) => s.audiences.updateComputedTrait(input) },
  syncComputedTrait: { run: (s, input) => s.audiences.syncComputedTrait(input) },
  deleteComputedTrait: { run: (s, input) => s.audiences.deleteComputedTrait(input) },
  // The delete messages' calls and deliveries, masked as every sent message is.
  createDeletionRequest: { run: (s, input) => s.deletions.createDeletionRequest(input), mask: (v) => ({ ...v, messages: v.messages.map(maskSent) }) },
} satisfies CommandImpls<keyof typeof AUDIENCES_COMMANDS, { audiences: AudienceService; deletions: DeletionRequests }>;
