/**
 * The packed desktop app (electron-builder.yml): every file the main process and its worker threads load at run
 * time is packed, and whatever a worker thread loads sits in app.asar.unpacked, where the thread starts from.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, matchesGlob, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { workerScriptUrl } from '../../../main/platform/workers.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const config = parse(readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8')) as { files: string[]; asarUnpack: string[]; asar: boolean; npmRebuild: boolean; extraMetadata: { main: string } };

/** The scripts started as worker threads (startEngineWorker and JobWorker names). */
const WORKERS = ['app/backgroundWorker', 'delivery/forwarderWorker', 'ingestion/ingestWorker'];

/** What a source file loads at run time: relative modules and packages (type-only imports load nothing). */
function loads(source: string): string[] {
  const text = readFileSync(source, 'utf8');
  const specs = [
    ...text.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^;]*?\sfrom\s+'([^']+)'/gm),
    ...text.matchAll(/^\s*import\s+'([^']+)'/gm),
    ...text.matchAll(/\bimport\('([^']+)'\)/g),
    ...text.matchAll(/(?:\brequire|\))\('([^']+)'\)/g),
  ].map((m) => m[1]!);
  return specs.filter((s) => !s.startsWith('node:'));
}

/** Every source file and package a worker loads, following relative imports from its entry. */
function closure(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string): void => {
    if (files.has(file)) return;
    files.add(file);
    for (const spec of loads(file)) {
      if (!spec.startsWith('.')) {
        if (spec !== 'tsx/esm/api') packages.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!); // tsx: only when running from sources
        continue;
      }
      const ts = join(dirname(file), spec).replace(/\.js$/, '.ts');
      visit(existsSync(ts) ? ts : join(dirname(file), spec, 'index.ts'));
    }
  };
  visit(entry);
  return { files, packages };
}

/** A package and the packages it depends on at run time, from their package.json files. */
function withDependencies(names: Iterable<string>): Set<string> {
  const all = new Set<string>();
  const visit = (name: string): void => {
    if (all.has(name)) return;
    all.add(name);
    const pkg = JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    for (const dep of Object.keys(pkg.dependencies ?? {})) visit(dep);
  };
  for (const name of names) visit(name);
  return all;
}

const packed = (path: string): boolean => config.files.some((g) => !g.startsWith('!') && matchesGlob(path, g)) && !config.files.some((g) => g.startsWith('!') && matchesGlob(path, g.slice(1)));
const unpacked = (path: string): boolean => config.asarUnpack.some((g) => matchesGlob(path, g));
/** The compiled file a main/ source becomes (tsconfig.build.json: main/ → dist/main/). */
const compiled = (source: string): string => join('dist', relative(ROOT, source)).replace(/\.ts$/, '.js');

describe('the packed desktop app (electron-builder.yml)', () => {
  it('packs the main process entry and is an asar archive with no rebuild of native modules (better-sqlite3 is Node-API)', () => {
    expect(config.asar).toBe(true);
    expect(config.npmRebuild).toBe(false);
    expect(packed(config.extraMetadata.main)).toBe(true);
    expect(existsSync(join(ROOT, config.extraMetadata.main.replace(/^dist\//, '').replace(/\.js$/, '.ts')))).toBe(true);
  });

  for (const worker of WORKERS) {
    it(`${worker}: its script and every module it imports are packed and unpacked beside it`, () => {
      const { files } = closure(join(ROOT, 'main', `${worker}.ts`));
      expect(files.size).toBeGreaterThan(1);
      const missing = [...files].map(compiled).filter((f) => !packed(f) || !unpacked(f));
      expect(missing).toEqual([]);
    });
  }

  it('every package a worker loads, with its dependencies, is unpacked, and the native binary for each platform with it', () => {
    const packages = new Set<string>();
    for (const worker of WORKERS) for (const p of closure(join(ROOT, 'main', `${worker}.ts`)).packages) packages.add(p);
    expect([...packages].sort()).toEqual(['better-sqlite3', 'jsonc-parser', 'undici']);
    const needed = withDependencies(packages);
    expect([...needed].filter((name) => !unpacked(`node_modules/${name}/package.json`))).toEqual([]);
    for (const binary of ['linux-x64', 'linux-arm64', 'darwin-arm64', 'darwin-x64', 'win32-x64']) {
      const path = `node_modules/better-sqlite3/prebuilds/${binary}.node`;
      expect(existsSync(join(ROOT, path)), path).toBe(true);
      expect(unpacked(path)).toBe(true);
    }
  });

  it('a worker started from inside app.asar loads its script from app.asar.unpacked; elsewhere from its feature folder', () => {
    expect(workerScriptUrl('delivery/forwarderWorker', 'file:///opt/Hookbench/resources/app.asar/dist/main/platform/workers.js').href).toBe('file:///opt/Hookbench/resources/app.asar.unpacked/dist/main/delivery/forwarderWorker.js');
    expect(workerScriptUrl('ingestion/ingestWorker', 'file:///C:/Program%20Files/Hookbench/resources/app.asar/dist/main/platform/workers.js').href).toBe('file:///C:/Program%20Files/Hookbench/resources/app.asar.unpacked/dist/main/ingestion/ingestWorker.js');
    expect(workerScriptUrl('app/backgroundWorker', 'file:///home/me/hookbench/dist/main/platform/workers.js').href).toBe('file:///home/me/hookbench/dist/main/app/backgroundWorker.js');
  });
});
