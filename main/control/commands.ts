/** The handlers of the commands main/contract/commands/control.ts declares (how: main/platform/commandTable.ts). */
import type { CONTROL_COMMANDS } from '../contract/commands/control.js';
import { ok } from '../contract/result.js';
import type { CommandImpls } from '../platform/commandTable.js';
import type { Control } from './control.js';

export const controlCommands = {
  advanceClock: { run: (s, input) => s.control.advanceClock(input) },
  advanceToNextRetry: { run: (s) => s.control.advanceToNextRetry() },
  cancelClockAdvance: { run: (s) => s.control.cancelClockAdvance() },
  resetClock: { run: (s) => s.control.resetClock() },
  getClock: { run: (s) => s.control.getClock() },
  setFastForward: { run: (s, input) => s.control.setFastForward(input) },
  getOverview: { run: (s) => s.control.getOverview() },
  pauseForwarding: { run: (s) => s.control.pauseForwarding() },
  resumeForwarding: { run: (s) => s.control.resumeForwarding() },
  getSettings: { run: (s) => s.control.getSettings() },
  // The core knows no URL of its own; serve's face answers with its UI URL.
  rotateToken: { run: (s) => ok({ token: s.control.rotateApiToken(), uiUrl: null }) },
} satisfies CommandImpls<keyof typeof CONTROL_COMMANDS, { control: Control }>;
