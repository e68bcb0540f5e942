/** The typed API's commands that main/diagnostics/ answers (its handlers: main/diagnostics/commands.ts). How to declare one: ./command.ts. */
import { z } from 'zod';
import { command, returns } from '../command.js';
import { noInput, rowId } from '../commandInputs.js';
import type { Diagnostics, MessageExplanation } from '../diagnostics.js';

export const DIAGNOSTICS_COMMANDS = {
  getDiagnostics: command({
    input: noInput,
    answers: returns<Diagnostics>('Diagnostics'),
    group: 'Workbench',
    summary: 'The troubleshooting checklist: no events from a source, received but not delivered, deliveries slow; each check computed from the newest messages, attempts, refusals and captures, with links to its evidence.',
  }),
  explainMessage: command({
    input: z.strictObject({ id: rowId }),
    answers: returns<MessageExplanation>('MessageExplanation'),
    group: 'Workbench',
    summary: 'Why one message was or was not delivered, per destination, from the checklist’s rules: disabled, not connected, integrations, an event filter with its rule, the receiver failing, TLS, the signature invalid at the receiver, the retry window exhausted (and why no further attempt came).',
    errors: ['not_found'],
  }),
};
