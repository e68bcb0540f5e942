// Regenerates schema/hookbench.config.schema.json and schema/check-scenarios.schema.json from their zod
// definitions (tests check both are current).
import { writeFileSync } from 'node:fs';
import { checkScenariosJsonSchema } from '../main/contract/check/checkInputs.js';
import { configJsonSchema } from '../main/contract/config.js';

for (const [name, schema] of [
  ['hookbench.config.schema.json', configJsonSchema()],
  ['check-scenarios.schema.json', checkScenariosJsonSchema()],
] as const) {
  const file = new URL(`../schema/${name}`, import.meta.url);
  writeFileSync(file, `${JSON.stringify(schema, null, 2)}\n`);
  console.log(`wrote ${file.pathname}`);
}
