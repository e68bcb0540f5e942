/**
 * package.json's allowScripts names every dependency with an install script, each allowed or denied on
 * purpose, so a clean `npm ci` has no unreviewed script to warn about (README, Development).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const read = (file: string): unknown => JSON.parse(readFileSync(join(ROOT, file), 'utf8'));

describe('install scripts', () => {
  const pkg = read('package.json') as { allowScripts?: Record<string, boolean> };
  const lock = read('package-lock.json') as { packages: Record<string, { hasInstallScript?: boolean }> };
  const withScripts = Object.entries(lock.packages)
    .filter(([path, entry]) => path !== '' && entry.hasInstallScript === true)
    .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));

  it('every dependency with one is named in allowScripts, and every entry names one', () => {
    expect(Object.keys(pkg.allowScripts ?? {}).sort()).toEqual([...new Set(withScripts)].sort());
  });

  it('only the scripts the project needs run: Node 24 and the Electron binary', () => {
    const allowed = Object.entries(pkg.allowScripts ?? {}).filter(([, allow]) => allow).map(([name]) => name);
    expect(allowed.sort()).toEqual(['electron', 'node']);
  });
});
