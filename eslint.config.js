// Layering is enforced here (docs/architecture.md): main/contract is pure TypeScript shared with the renderer;
// main/domain is the pure domain (no I/O); only the outer layers touch sockets and disks, and only main/desktop
// touches Electron.
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];
const ioPackages = ['electron', 'undici', 'better-sqlite3', 'selfsigned', 'ws', 'commander'];
const uiPackages = ['react', 'react-dom', 'zustand'];
/**
 * The folders of the engine, what every face builds, floor by floor from the ground (docs/architecture.md,
 * "Layers"): a folder may import the floors below its own, never one above, and never a folder beside it on its
 * floor (features stay apart; what two of them share lives lower). main/app, the wiring, is the top floor.
 */
const ENGINE_FLOORS = [['platform'], ['registry'], ['ingestion'], ['delivery', 'receiver', 'audiences', 'history', 'diagnostics'], ['check'], ['control'], ['app']];
const ENGINE_FOLDERS = ENGINE_FLOORS.flat();
/** The engine folders that `folder` may not import: those above its floor and those beside it. */
const notBelow = (folder) => {
  const floor = ENGINE_FLOORS.findIndex((f) => f.includes(folder));
  return ENGINE_FLOORS.slice(floor).flat().filter((f) => f !== folder);
};

// Every restriction below is for a folder outside main/desktop, so each also refuses electron and its subpaths
// (a folder's own rule replaces the global one, so it has to say so again).
const restrict = (message, names, patterns = []) => ({
  'no-restricted-imports': [
    'error',
    {
      paths: [...new Set([...names, 'electron'])].map((name) => ({ name, message })),
      patterns: [...patterns, { group: ['electron/*'] }].map((p) => ({ ...p, message: p.message ?? message })),
    },
  ],
});

export default tseslint.config(
  { ignores: ['dist/**', 'release/**', 'node_modules/**', 'bench/results/**', 'renderer/dist/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Everywhere else (the renderer, scripts, tests, ...); the folders below repeat it in their own rules.
    files: ['**/*.{ts,cts,mts,tsx,js,cjs,mjs}'],
    ignores: ['main/desktop/**'],
    rules: restrict('Only main/desktop imports electron: the core, the CLI, serve and the renderer run without it.', []),
  },
  {
    // The sandboxed preload is CommonJS (it may require 'electron' only): `import x = require()` is its import.
    files: ['main/desktop/**/*.cts'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['main/contract/**/*.ts'],
    rules: restrict(
      'main/contract is shared with the renderer: no Node, Electron, I/O or UI imports (zod and ./ files only).',
      [...nodeBuiltins, ...ioPackages, ...uiPackages],
      [{ group: ['../*'], message: 'main/contract may import only from itself (and zod).' }],
    ),
  },
  {
    // The contract's subfolders (command declarations, the message, the receiver, the check): `../` is still main/contract.
    files: ['main/contract/*/*.ts'],
    rules: restrict(
      'main/contract is shared with the renderer: no Node, Electron, I/O or UI imports (zod and main/contract files only).',
      [...nodeBuiltins, ...ioPackages, ...uiPackages],
      [{ group: ['../../*'], message: 'main/contract may import only from itself (and zod).' }],
    ),
  },
  {
    files: ['main/domain/**/*.ts'],
    rules: restrict(
      'main/domain is the pure domain: no I/O. Put sockets, files and databases in a feature folder or main/store.',
      [
        ...ioPackages,
        ...uiPackages,
        ...nodeBuiltins.filter((m) => !['crypto', 'node:crypto', 'buffer', 'node:buffer', 'util', 'node:util'].includes(m)),
      ],
      [{ group: [...ENGINE_FOLDERS.map((folder) => `../${folder}/*`), '../store/*', '../server/*', '../desktop/*', '../client/*', '../cli*'], message: 'main/domain may import only main/contract and itself.' }],
    ),
  },
  // A core's store is its own: production code reaches it only through the narrow views the core gives
  // (ingestion, health, the services). internalsOf is for tests and benchmarks.
  {
    files: ['main/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "ImportSpecifier[imported.name='internalsOf']", message: 'internalsOf (a core\'s store) is for tests and benchmarks; use the narrow views the core gives (core.ingestion, core.health, its commands).' },
      ],
    },
  },
  // The outer layers, innermost first (docs/architecture.md, "Layers"): each may import the layers inside it, never one outside.
  // main/store holds the connection and the repositories several features share. A repository one feature
  // alone uses lives in that feature's folder (receiver/receiverStore.ts, ...): the store could not build it
  // without importing a feature, so app/services.ts builds it over the store's connection.
  {
    files: ['main/store/**/*.ts'],
    rules: restrict('main/store is persistence: it may import main/contract and main/domain, never the engine, the faces or Electron (a repository only one feature uses goes in that feature\'s folder; app/services.ts builds it).', ['electron', 'undici', 'ws', 'commander'], [
      { group: [...ENGINE_FOLDERS.map((folder) => `../${folder}/*`), '../server/*', '../cli/*', '../cli.js', '../desktop/*', '../client/*', '../../renderer/*'] },
    ]),
  },
  ...ENGINE_FOLDERS.map((folder) => ({
    files: [`main/${folder}/**/*.ts`],
    rules: restrict('The engine (main/app and the feature folders) is the core that every face builds: it may not import a face (server, cli, desktop) or the client library.', ['electron', 'commander'], [
      { group: ['../server/*', '../cli/*', '../cli.js', '../desktop/*', '../client/*', '../../server/*', '../../cli/*', '../../desktop/*', '../../client/*'] },
      ...(notBelow(folder).length > 0
        ? [{ group: notBelow(folder).map((f) => `../${f}/*`), message: `main/${folder} may import only the engine folders below its floor (${ENGINE_FLOORS.map((f) => f.join(', ')).join(' < ')}): move what it needs lower, or have main/app hand it in.` }]
        : []),
    ]),
  })),
  {
    files: ['main/server/**/*.ts'],
    rules: restrict('main/server is the HTTP face: it may not import the CLI or the desktop shell.', ['electron', 'commander'], [{ group: ['../cli/*', '../cli.js', '../desktop/*', '../client/*'] }]),
  },
  {
    files: ['main/client/**/*.ts'],
    rules: restrict('main/client is a library for other projects: it may import main/contract only (and undici for HTTP).', ['electron', 'better-sqlite3', 'ws', 'commander', 'selfsigned'], [
      { group: ['../domain/*', ...ENGINE_FOLDERS.map((folder) => `../${folder}/*`), '../store/*', '../server/*', '../cli/*', '../cli.js', '../desktop/*'] },
    ]),
  },
  {
    files: ['main/cli/**/*.ts', 'main/cli.ts'],
    rules: restrict('The CLI may not import the desktop shell.', ['electron'], [{ group: ['../desktop/*', './desktop/*', '../../desktop/*', '../../../desktop/*'] }]),
  },
  {
    // The renderer talks to the core only through the typed contract (commands and events over a transport).
    files: ['renderer/src/**/*.{ts,tsx}'],
    rules: restrict(
      'The renderer may import main/contract (types and schemas) and its own libraries: no Node, Electron or I/O packages.',
      [...nodeBuiltins, ...ioPackages],
      [{ regex: '(^|/)main/(?!contract/)', message: 'The renderer may import only main/contract from main/: reach the core through the API client (renderer/src/api).' }],
    ),
  },
);
