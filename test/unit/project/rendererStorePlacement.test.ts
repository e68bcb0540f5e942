import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Where a zustand store lives (renderer/README.md, "Stores"): in `stores/` when the app frame, the session
 * or more than one screen reads it; in its screen's folder as `<name>Store.ts` when one screen alone does.
 */
const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../../renderer/src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(e.name) ? [path] : [];
  });
}

const files = sourceFiles(SRC).map((path) => ({ path: relative(SRC, path), text: readFileSync(path, 'utf8') }));
const withoutExtension = (path: string) => path.replace(/\.(tsx?|js)$/, '');

/** The renderer files that import `module` (a path under renderer/src, without its extension). */
function importersOf(module: string): string[] {
  return files
    .filter((f) => [...f.text.matchAll(/from '(\.{1,2}\/[^']+)'/g)].some((m) => withoutExtension(join(dirname(f.path), m[1]!)) === module))
    .map((f) => f.path);
}

/** The folder a file belongs to for this rule: `features/<screen>`, or its top folder (app, ui, lib, stores). */
const areaOf = (path: string) => (path.startsWith('features/') ? path.split('/').slice(0, 2).join('/') : path.split('/')[0]!);

const stores = files.filter((f) => /from 'zustand'/.test(f.text) && /\bcreate\s*[<(]/.test(f.text));

describe('where renderer stores live', () => {
  it('finds the stores it judges (the rule is not vacuous)', () => {
    expect(stores.map((s) => s.path)).toEqual(expect.arrayContaining(['stores/live.ts', 'stores/router.ts', 'features/history/historyStore.ts']));
  });

  it.each(stores.map((s) => [s.path]))('%s sits in stores/ or in its one screen as <name>Store.ts', (path) => {
    expect(path).toMatch(/^stores\/[a-zA-Z]+\.ts$|^features\/[a-zA-Z]+\/[a-zA-Z]+Store\.ts$/);
  });

  it.each(stores.filter((s) => s.path.startsWith('features/')).map((s) => [s.path]))('%s is read by its own screen alone', (path) => {
    const own = areaOf(path);
    const outside = importersOf(withoutExtension(path)).filter((p) => areaOf(p) !== own);
    expect(outside).toEqual([]);
  });

  it.each(stores.filter((s) => s.path.startsWith('stores/')).map((s) => [s.path]))('%s is shared: not read by one screen alone', (path) => {
    const areas = new Set(importersOf(withoutExtension(path)).map(areaOf));
    const onlyOneScreen = areas.size === 1 && [...areas][0]!.startsWith('features/');
    expect({ path, areas: [...areas], onlyOneScreen }).toMatchObject({ onlyOneScreen: false });
  });
});

/** The renderer files `file` imports (paths under renderer/src, without their extension). */
const importsOf = (file: { path: string; text: string }) => [...file.text.matchAll(/from '(\.{1,2}\/[^']+)'/g)].map((m) => withoutExtension(join(dirname(file.path), m[1]!))).filter((p) => !p.startsWith('..'));

describe('which way imports run in the renderer', () => {
  // A store shared with the frame (the palette reads compose) cannot depend on one screen's folder.
  it.each(files.filter((f) => f.path.startsWith('stores/')).map((f) => [f.path, f] as const))('%s imports no screen or frame', (_path, file) => {
    expect(importsOf(file).filter((p) => p.startsWith('features/') || p.startsWith('app/'))).toEqual([]);
  });

  // lib/ is pure helpers, unit-tested without a store or a transport.
  it.each(files.filter((f) => f.path.startsWith('lib/')).map((f) => [f.path, f] as const))('%s imports only lib/', (_path, file) => {
    expect(importsOf(file).filter((p) => !p.startsWith('lib/'))).toEqual([]);
  });
});
