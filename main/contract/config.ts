/**
 * The config file (docs/behaviour.md §10): sources, destinations and receivers, applied at start and matched by
 * name. Its JSON Schema (schema/hookbench.config.schema.json) is generated from this one definition.
 */
import { z } from 'zod';
import { configDestinationSchema, sourceInputSchema } from './schemas.js';

export const configSchema = z.strictObject({
  $schema: z.string().optional(),
  sources: z.array(sourceInputSchema).default([]),
  destinations: z.array(configDestinationSchema).default([]),
  /** Mock receiver endpoints; each is validated by the receiver when the file is applied. */
  receivers: z.array(z.looseObject({ name: z.string().min(1) })).default([]),
});

export type HookbenchConfig = z.infer<typeof configSchema>;
export type HookbenchConfigInput = z.input<typeof configSchema>;

export function configJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(configSchema, { io: 'input', unrepresentable: 'any' }),
    title: 'Hookbench config file',
    description: 'Sources, destinations and mock receivers, applied when `hookbench serve --config FILE` starts. Objects are matched by name.',
  };
}
