/** The handlers of the commands main/contract/commands/history.ts declares (how: main/platform/commandTable.ts). */
import type { HISTORY_COMMANDS } from '../contract/commands/history.js';
import { maskMessageDetail } from '../domain/secrets.js';
import type { Intake } from '../ingestion/intake.js';
import type { CommandImpls } from '../platform/commandTable.js';
import type { Registry } from '../registry/registry.js';
import type { History } from './history.js';
import { importMessages } from './importer.js';
import type { Retention } from './retention.js';

export interface HistoryServices {
  history: History;
  retention: Retention;
  intake: Intake;
  registry: Registry;
}

export const historyCommands = {
  listMessages: { run: (s, input) => s.history.listMessages(input) },
  getMessage: { run: (s, input) => s.history.getMessage(input), mask: maskMessageDetail },
  exportMessages: { run: (s, input) => s.history.exportMessages(input) },
  importMessages: { run: (s, input) => importMessages(input, { intake: s.intake, registry: s.registry }) },
  getRetention: { run: (s) => s.retention.getRetention() },
  setRetention: { run: (s, input) => s.retention.setRetention(input) },
  listDestinationStats: { run: (s) => s.history.listDestinationStats() },
  getDestinationTimeline: { run: (s, input) => s.history.getDestinationTimeline(input) },
  listSourceUsage: { run: (s) => s.history.listSourceUsage() },
  listIngestLog: { run: (s, input) => s.history.listIngestLog(input) },
  listDeletionRequests: { run: (s) => s.history.listDeletionRequests() },
} satisfies CommandImpls<keyof typeof HISTORY_COMMANDS, HistoryServices>;
