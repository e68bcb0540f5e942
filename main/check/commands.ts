/** The handlers of the commands main/contract/commands/check.ts declares (how: main/platform/commandTable.ts). */
import type { CHECK_COMMANDS } from '../contract/commands/check.js';
import type { CommandImpls } from '../platform/commandTable.js';
import type { CheckService } from './checkService.js';

export const checkCommands = {
  runCheck: { run: (s, input) => s.checks.runCheck(input) },
  stopCheckRun: { run: (s, input) => s.checks.stopCheckRun(input) },
  getCheckRun: { run: (s, input) => s.checks.getCheckRun(input) },
  listCheckRuns: { run: (s, input) => s.checks.listCheckRuns(input) },
} satisfies CommandImpls<keyof typeof CHECK_COMMANDS, { checks: CheckService }>;
