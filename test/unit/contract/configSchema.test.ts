import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configJsonSchema } from '../../../main/contract/config.js';

describe('the shipped JSON Schema of the config file', () => {
  it('is generated from the zod definition (run `npm run schema` after changing it)', () => {
    const shipped = JSON.parse(readFileSync(new URL('../../../schema/hookbench.config.schema.json', import.meta.url), 'utf8')) as unknown;
    expect(shipped).toEqual(configJsonSchema());
  });

  it('tells an editor the limits a refinement checks: at most 5 webhooks a destination, 5 headers a webhook', () => {
    const schema = configJsonSchema() as { properties: { destinations: { items: { properties: { webhooks: { maxItems: number; items: { properties: { headers: { maxProperties: number } } } } } } } } };
    const webhooks = schema.properties.destinations.items.properties.webhooks;
    expect(webhooks.maxItems).toBe(5);
    expect(webhooks.items.properties.headers.maxProperties).toBe(5);
  });
});
