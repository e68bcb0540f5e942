import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configJsonSchema } from '../../../main/contract/config.js';

describe('the shipped JSON Schema of the config file', () => {
  it('is generated from the zod definition (run `npm run schema` after changing it)', () => {
    const shipped = JSON.parse(readFileSync(new URL('../../../schema/hookbench.config.schema.json', import.meta.url), 'utf8')) as unknown;
    expect(shipped).toEqual(configJsonSchema());
  });
});
