/** The typed API's commands that main/diagnostics/ answers (its handlers: main/diagnostics/commands.ts). How to declare one: ./command.ts. */
import { z } from 'zod';
import { command, returns } from '../command.js';
import { noInput, ref, rowId } from '../commandInputs.js';
import { ROUTING_INPUTS_LIMIT, type Diagnostics, type MessageExplanation, type RoutingInputs } from '../diagnostics.js';
import { wrongType } from '../zodWords.js';

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
  listRoutingInputs: command({
    input: z.strictObject({
      sourceIds: z.array(ref).max(1000).optional(),
      limit: z.number({ error: wrongType('must be a number') }).int('must be a whole number').min(1, 'must be at least 1').max(ROUTING_INPUTS_LIMIT, `must be at most ${ROUTING_INPUTS_LIMIT}`).optional(),
    }),
    answers: returns<RoutingInputs>('{ looked: number; items: RoutingInput[] }'),
    group: 'Workbench',
    summary: `What routing reads of the newest \`limit\` messages (default and at most ${ROUTING_INPUTS_LIMIT.toLocaleString('en-US')}), newest first: source, type, event, the call's integrations as routing reads them (each key true, false or null) and the destinations that got a delivery; only those of \`sourceIds\` when given. The Destinations editor previews event filters with them and the engine's rules (docs/behaviour.md §6).`,
  }),
};
