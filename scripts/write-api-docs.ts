// Regenerates docs/api.md from the command table (a test checks it is current).
import { mkdirSync, writeFileSync } from 'node:fs';
import { renderApiDocs } from './apiDocs.js';

const file = new URL('../docs/api.md', import.meta.url);
mkdirSync(new URL('../docs/', import.meta.url), { recursive: true });
writeFileSync(file, renderApiDocs());
console.log(`wrote ${file.pathname}`);
