import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHANNELS } from '../../../main/desktop/channels.js';
import { compiledPreload, ipcPair, runPreload } from '../../helpers/fakeElectron.js';

/** Every module a CommonJS or ES module text loads: require('x'), import ... from 'x', import('x'). */
function loadedModules(code: string): string[] {
  const found = new Set<string>();
  for (const re of [/\brequire\s*\(\s*(['"`])([^'"`]+)\1\s*\)/g, /\bimport\s[^'"]*?from\s*(['"])([^'"]+)\1/g, /\bimport\s*\(\s*(['"`])([^'"`]+)\1\s*\)/g, /^\s*import\s*(['"])([^'"]+)\1/gm]) {
    for (const m of code.matchAll(re)) found.add(m[2]!);
  }
  return [...found];
}

describe('preload (a sandboxed CommonJS script)', () => {
  it('compiles to CommonJS that loads nothing but electron', () => {
    const code = compiledPreload();
    expect(loadedModules(code)).toEqual(['electron']);
    expect(code).not.toMatch(/^\s*(import|export)\s/m);
  });

  it('the built file, when there is one, does the same', () => {
    const built = new URL('../../../dist/main/desktop/preload.cjs', import.meta.url);
    if (!existsSync(built)) return; // `npm run build` makes it; the compiled source above is the same text
    expect(loadedModules(readFileSync(built, 'utf8'))).toEqual(['electron']);
  });

  it('runs in a sandbox-like wrapper and exposes exactly window.hookbench, never ipcRenderer', () => {
    const pair = ipcPair();
    const { world, required } = runPreload(compiledPreload(), pair.ipcRenderer);
    expect(required).toEqual(['electron']);
    expect(Object.keys(world)).toEqual(['hookbench']);
    const bridge = world['hookbench'] as Record<string, unknown>;
    expect(Object.keys(bridge).sort()).toEqual(['call', 'onEvents', 'openExternal', 'openFile', 'revealDataDir', 'saveFile']);
    for (const value of Object.values(bridge)) {
      expect(typeof value).toBe('function');
      expect(value).not.toBe(pair.ipcRenderer);
    }
  });

  it('uses the channel names of main/desktop/channels.ts, and only those', () => {
    const spelled = [...compiledPreload().matchAll(/'(hookbench:[^']+)'/g)].map((m) => m[1]);
    expect(new Set(spelled)).toEqual(new Set(Object.values(CHANNELS)));
  });
});
