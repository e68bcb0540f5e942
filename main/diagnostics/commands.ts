/** The handlers of the commands main/contract/commands/diagnostics.ts declares (how: main/platform/commandTable.ts). */
import type { DIAGNOSTICS_COMMANDS } from '../contract/commands/diagnostics.js';
import type { CommandImpls } from '../platform/commandTable.js';
import type { DiagnosticsService } from './diagnostics.js';

export const diagnosticsCommands = {
  getDiagnostics: {
    run: (s) => s.diagnostics.diagnose({ ingestUrl: null }),
    // Where SDKs must send is known to the face (serve's URL), not to the core.
    viaApi: async (s, _input, api) => {
      const settings = await api.getSettings({});
      return s.diagnostics.diagnose({ ingestUrl: settings.ok ? settings.value.ingestUrl : null });
    },
  },
  explainMessage: { run: (s, input) => s.diagnostics.explainMessage(input) },
  listRoutingInputs: { run: (s, input) => s.diagnostics.routingInputs(input) },
} satisfies CommandImpls<keyof typeof DIAGNOSTICS_COMMANDS, { diagnostics: DiagnosticsService }>;
