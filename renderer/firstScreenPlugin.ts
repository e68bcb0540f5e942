/**
 * How the first screen starts at once (docs/architecture.md, "The first screen"): the page's first requests
 * (src/api/firstRequests.ts) are an entry of their own, a small chunk that index.html runs before the app's,
 * and index.html lists each screen's chunks for it to preload the landing route's (the hash, which only the
 * page knows, picks the screen). Build only: in development main.tsx starts the same requests itself.
 *
 * The chunks every page runs at start also begin with V8's compile hint (COMPILE_HINT): their functions are
 * compiled while the file streams in, off the main thread, instead of one at a time on the main thread
 * when first called, which is nearly all of them on the way to the first screen. React's chunk is the
 * exception (COMPILED_LAZILY): the first screen calls a fraction of its 219 kB, and compiling all of it
 * made its streaming thread the last to finish, which the page's scripts wait for.
 */
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin, Rolldown } from 'vite';

/** The first requests' module, from the renderer's root. */
const FIRST_REQUESTS = 'src/api/firstRequests.ts';
/** The element firstRequests.ts reads (its SCREEN_CHUNKS_ID). */
const SCREEN_CHUNKS_ID = 'hookbench-screen-chunks';

type Chunk = Rolldown.OutputChunk;

/** V8's explicit compile hint: compile every function of the file eagerly (on the streaming thread). */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad';
/** Chunks (their names: vite.config.ts's groups) that run at start without the hint. */
export const COMPILED_LAZILY: ReadonlySet<string> = new Set(['react']);

/** The copies vite-plugin-compression2 writes beside a file, with its settings (the best compression). */
const COMPRESSED: [string, (code: string) => Buffer][] = [
  ['.gz', (code) => gzipSync(code, { level: constants.Z_BEST_COMPRESSION })],
  ['.br', (code) => brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY } })],
];

/**
 * Each lazily loaded screen's chunks beyond those the page loads anyway, by screen: `features/<view>/<X>View.tsx`
 * is the view `<view>`; `features/detail/DetailPane.tsx` and the split it opens in (`features/detail/PaneSplit.tsx`)
 * are `detail`. Paths are relative to index.html.
 */
export function screenChunks(chunks: readonly Chunk[], loadedAnyway: ReadonlySet<string>): Record<string, string[]> {
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  const screens: Record<string, string[]> = {};
  for (const chunk of chunks) {
    if (!chunk.isDynamicEntry || !chunk.facadeModuleId) continue;
    const module = /[\\/]features[\\/]([a-z]+)[\\/]([A-Za-z]+)\.tsx$/.exec(chunk.facadeModuleId);
    if (!module) continue;
    const key = module[2] === 'DetailPane' || module[2] === 'PaneSplit' ? 'detail' : module[2]!.endsWith('View') ? module[1]! : null;
    if (!key) continue;
    const files = [...staticClosure(byFile, chunk.fileName)].filter((f) => !loadedAnyway.has(f)).map((f) => `./${f}`);
    screens[key] = [...new Set([...(screens[key] ?? []), ...files])];
  }
  return screens;
}

/** `file` and every chunk it imports statically, directly or not. */
export function staticClosure(byFile: ReadonlyMap<string, Chunk>, file: string, seen: Set<string> = new Set()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const imported of byFile.get(file)?.imports ?? []) staticClosure(byFile, imported, seen);
  return seen;
}

export function firstScreen(root: string): Plugin {
  return {
    name: 'hookbench-first-screen',
    apply: 'build',
    config: () => ({ build: { rolldownOptions: { input: { index: join(root, 'index.html'), firstRequests: join(root, FIRST_REQUESTS) } } } }),
    // Last, after minification (which would drop the comment) and after Vite's import analysis, which puts a
    // line of its own at the top of the entry: the hint counts only as the file's first line. The compressed
    // copies made meanwhile (vite.config.ts) are made again from the hinted code, as that plugin makes them.
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const chunks = Object.values(bundle).filter((c): c is Chunk => c.type === 'chunk');
        const byFile = new Map(chunks.map((c) => [c.fileName, c]));
        const atStart = new Set<string>();
        for (const entry of chunks.filter((c) => c.isEntry)) staticClosure(byFile, entry.fileName, atStart);
        for (const file of atStart) {
          const chunk = byFile.get(file)!;
          if (chunk.code.startsWith(COMPILE_HINT) || COMPILED_LAZILY.has(chunk.name)) continue;
          chunk.code = `${COMPILE_HINT}\n${chunk.code}`;
          for (const [ext, compress] of COMPRESSED) {
            const copy = bundle[file + ext];
            if (copy?.type === 'asset') copy.source = compress(chunk.code);
          }
        }
      },
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (!ctx.bundle || !ctx.chunk) return html;
        const chunks = Object.values(ctx.bundle).filter((c): c is Chunk => c.type === 'chunk');
        const byFile = new Map(chunks.map((c) => [c.fileName, c]));
        const first = chunks.find((c) => c.isEntry && c.facadeModuleId?.replace(/\\/g, '/').endsWith(FIRST_REQUESTS));
        if (!first) throw new Error(`firstScreenPlugin: no chunk for ${FIRST_REQUESTS}`);
        const loadedAnyway = staticClosure(byFile, first.fileName, staticClosure(byFile, ctx.chunk.fileName));
        const screens = JSON.stringify(screenChunks(chunks, loadedAnyway)).replace(/</g, '\\u003c');
        // Its own imports (if the bundler split any off) load beside it rather than after it.
        const imports = [...staticClosure(byFile, first.fileName)].filter((f) => f !== first.fileName && !html.includes(`"./${f}"`));
        const tags = [
          `<script type="application/json" id="${SCREEN_CHUNKS_ID}">${screens}</script>`,
          // async: it runs as soon as it is here, without waiting for the stylesheet as a deferred script would.
          `<script type="module" async crossorigin src="./${first.fileName}"></script>`,
          ...imports.map((f) => `<link rel="modulepreload" crossorigin href="./${f}">`),
        ];
        const at = html.indexOf('<script type="module"');
        if (at < 0) throw new Error('firstScreenPlugin: index.html has no module script to run the first requests before');
        return `${html.slice(0, at)}${tags.join('\n    ')}\n    ${html.slice(at)}`;
      },
    },
  };
}
