/**
 * The config file (docs/behaviour.md §10): sources, destinations and receivers, applied at start and matched by
 * name. Its JSON Schema (schema/hookbench.config.schema.json) is generated from this one definition.
 */
import { z } from 'zod';
import { configDestinationSchema, sourceInputSchema } from './schemas.js';
import { wrongType } from './zodWords.js';

export const configSchema = z.strictObject({
  $schema: z.string().optional(),
  sources: z.array(sourceInputSchema).default([]),
  destinations: z.array(configDestinationSchema).default([]),
  /** Mock receiver endpoints; each is validated by the receiver when the file is applied. */
  receivers: z
    .array(
      z.looseObject({
        name: z.string().min(1),
        refuseInvalidSignatures: z
          .boolean({ error: wrongType('must be true or false') })
          .optional()
          .describe('Answer 401 with a JSON error to a request whose X-Signature is invalid or missing, before the script. Needs a secret. Default false.'),
      }),
    )
    .default([]),
}).superRefine((config, ctx) => {
  // Objects are matched by name: two with one name would be created, then silently overwritten by the second.
  for (const list of ['sources', 'destinations', 'receivers'] as const) {
    const first = new Map<string, number>();
    config[list].forEach((item, i) => {
      const name = item.name?.trim();
      if (name === undefined) return;
      const at = first.get(name);
      if (at === undefined) first.set(name, i);
      else ctx.addIssue({ code: 'custom', path: [list, i, 'name'], message: `"${name}" is also the name of ${list}[${at}]: names must be unique in a config file (objects are matched by name)` });
    });
  }
});

export type HookbenchConfig = z.infer<typeof configSchema>;

export function configJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(configSchema, { io: 'input', unrepresentable: 'any' }),
    title: 'Hookbench config file',
    description: 'Sources, destinations and mock receivers, applied when `hookbench serve --config FILE` starts. Objects are matched by name.',
  };
}
