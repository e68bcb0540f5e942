// tsc only adds and overwrites: a renamed or deleted module's old .js would stay in dist/ and be packed.
// What build:main emits (dist/main, dist/bench) is removed first; the renderer's build is left alone.
import { rmSync } from 'node:fs';
for (const dir of ['main', 'bench']) rmSync(new URL(`../dist/${dir}`, import.meta.url), { recursive: true, force: true });
