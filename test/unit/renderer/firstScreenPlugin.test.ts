import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { Rolldown } from 'vite';
import { COMPILE_HINT, COMPILED_LAZILY, firstScreen, screenChunks } from '../../../renderer/firstScreenPlugin.js';

type Chunk = Rolldown.OutputChunk;

const chunk = (fileName: string, fields: Partial<Chunk> = {}): Chunk =>
  ({ type: 'chunk', fileName, code: `/* ${fileName} */`, imports: [], isEntry: false, isDynamicEntry: false, facadeModuleId: null, ...fields }) as Chunk;

describe('the first screen build step', () => {
  it('lists a linked message’s chunks as the pane’s and the split’s together, less what the page loads anyway', () => {
    const chunks = [
      chunk('index.js', { isEntry: true, imports: ['react.js'] }),
      chunk('react.js'),
      chunk('DetailPane.js', { isDynamicEntry: true, facadeModuleId: '/r/src/features/detail/DetailPane.tsx', imports: ['editor.js', 'react.js'] }),
      chunk('PaneSplit.js', { isDynamicEntry: true, facadeModuleId: '/r/src/features/detail/PaneSplit.tsx', imports: ['panels.js', 'react.js'] }),
      chunk('HistoryView.js', { isDynamicEntry: true, facadeModuleId: '/r/src/features/history/HistoryView.tsx', imports: ['react.js'] }),
      chunk('editor.js'),
      chunk('panels.js'),
    ];
    expect(screenChunks(chunks, new Set(['index.js', 'react.js']))).toEqual({
      detail: ['./DetailPane.js', './editor.js', './PaneSplit.js', './panels.js'],
      history: ['./HistoryView.js'],
    });
  });

  it('puts the compile hint first in the chunks every page runs at start but React\'s, and compresses them again with it', async () => {
    const plugin = firstScreen('/r');
    const bundle: Record<string, Chunk | Rolldown.OutputAsset> = {
      'index.js': chunk('index.js', { isEntry: true, imports: ['react.js', 'instance.js'], code: 'const __vite__mapDeps=0;\nindex' }),
      'firstRequests.js': chunk('firstRequests.js', { isEntry: true, code: 'first' }),
      'react.js': chunk('react.js', { name: 'react', code: 'react' }),
      'instance.js': chunk('instance.js', { name: 'instance', code: 'instance' }),
      'HistoryView.js': chunk('HistoryView.js', { isDynamicEntry: true, code: 'history' }),
      'instance.js.br': { type: 'asset', fileName: 'instance.js.br', source: 'stale' } as Rolldown.OutputAsset,
      'instance.js.gz': { type: 'asset', fileName: 'instance.js.gz', source: 'stale' } as Rolldown.OutputAsset,
    };
    const hook = plugin.generateBundle as { order: string; handler(this: unknown, options: unknown, bundle: unknown): void };
    expect(hook.order).toBe('post');
    hook.handler.call({}, {}, bundle);
    const code = (file: string) => (bundle[file] as Chunk).code;
    expect(code('index.js')).toBe(`${COMPILE_HINT}\nconst __vite__mapDeps=0;\nindex`);
    expect(code('firstRequests.js')).toBe(`${COMPILE_HINT}\nfirst`);
    expect(code('instance.js')).toBe(`${COMPILE_HINT}\ninstance`);
    expect(COMPILED_LAZILY.has('react')).toBe(true);
    expect(code('react.js')).toBe('react');
    expect(code('HistoryView.js')).toBe('history');
    const source = (file: string) => (bundle[file] as Rolldown.OutputAsset).source as Buffer;
    expect(brotliDecompressSync(source('instance.js.br')).toString()).toBe(code('instance.js'));
    expect(gunzipSync(source('instance.js.gz')).toString()).toBe(code('instance.js'));
    // Once is enough, should the hook run again.
    hook.handler.call({}, {}, bundle);
    expect(code('instance.js')).toBe(`${COMPILE_HINT}\ninstance`);
  });
});
