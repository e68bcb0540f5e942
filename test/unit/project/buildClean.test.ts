import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/tempDir.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

describe('npm run build:main', () => {
  it("starts from an empty dist/main and dist/bench (a renamed module's old file is not packed), and leaves the renderer's build", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts['build:main']!.startsWith('node scripts/clean-build.mjs && tsc ')).toBe(true);
    const { dir, cleanup } = tempDir('hookbench-clean-');
    try {
      mkdirSync(join(dir, 'scripts'));
      copyFileSync(join(ROOT, 'scripts', 'clean-build.mjs'), join(dir, 'scripts', 'clean-build.mjs'));
      for (const sub of ['main', 'bench', 'renderer']) {
        mkdirSync(join(dir, 'dist', sub), { recursive: true });
        writeFileSync(join(dir, 'dist', sub, 'old.js'), '');
      }
      execFileSync(process.execPath, [join(dir, 'scripts', 'clean-build.mjs')]);
      expect(['main', 'bench', 'renderer'].map((sub) => existsSync(join(dir, 'dist', sub, 'old.js')))).toEqual([false, false, true]);
    } finally {
      cleanup();
    }
  });
});
