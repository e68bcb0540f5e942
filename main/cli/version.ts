import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The version in Hookbench's package.json, found by walking up from this module: it runs from
 * `main/cli/` in source and from `dist/main/cli/` when built, so no fixed relative path fits both.
 */
export function packageVersion(from: string = import.meta.url): string {
  let dir = dirname(fileURLToPath(from));
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      try {
        const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown; version?: unknown };
        if (pkg.name === 'hookbench' && typeof pkg.version === 'string') return pkg.version;
      } catch {
        // not ours or unreadable: keep walking
      }
    }
    const up = dirname(dir);
    if (up === dir) return '0.0.0-unknown';
    dir = up;
  }
}
