/** The handlers of the commands main/contract/commands/diagnostics.ts declares (how: main/platform/commandTable.ts). */
import type { DIAGNOSTICS_COMMANDS } from '../contract/commands/diagnostics.js';
import type { CommandHandlers } from '../contract/dispatch.js';
import type { CommandImpls } from '../platform/commandTable.js';
import type { DiagnosticsService } from './diagnostics.js';

/** Where SDKs must send is known to the face (serve's URL), not to the core. */
async function diagnoseForFace(diagnostics: DiagnosticsService, api: CommandHandlers) {
  const settings = await api.getSettings({});
  return diagnostics.diagnose({ ingestUrl: settings.ok ? settings.value.ingestUrl : null });
}

export const diagnosticsCommands = {
  getDiagnostics: { run: (s) => s.diagnostics.diagnose({ ingestUrl: null }), viaApi: (s, _input, api) => diagnoseForFace(s.diagnostics, api) },
  explainMessage: { run: (s, input) => s.diagnostics.explainMessage(input) },
  listRoutingInputs: { run: (s, input) => s.diagnostics.routingInputs(input) },
} satisfies CommandImpls<keyof typeof DIAGNOSTICS_COMMANDS, { diagnostics: DiagnosticsService }>;
