// Regenerates schema/hookbench.config.schema.json from the zod definition (a test checks it is current).
import { writeFileSync } from 'node:fs';
import { configJsonSchema } from '../main/contract/config.js';

const file = new URL('../schema/hookbench.config.schema.json', import.meta.url);
writeFileSync(file, `${JSON.stringify(configJsonSchema(), null, 2)}\n`);
console.log(`wrote ${file.pathname}`);
