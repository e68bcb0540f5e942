// Layering is enforced here (ARCHITECTURE.md): main/contract is pure TypeScript shared with the renderer;
// main/core is the pure domain (no I/O); only the outer layers touch sockets, disks and Electron.
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];
const ioPackages = ['electron', 'undici', 'better-sqlite3', 'selfsigned', 'ws', 'commander'];
const uiPackages = ['react', 'react-dom', 'zustand'];

const restrict = (message, names, patterns = []) => ({
  'no-restricted-imports': ['error', { paths: names.map((name) => ({ name, message })), patterns: patterns.map((p) => ({ ...p, message: p.message ?? message })) }],
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
    files: ['main/contract/**/*.ts'],
    rules: restrict(
      'main/contract is shared with the renderer: no Node, Electron, I/O or UI imports (zod and ./ files only).',
      [...nodeBuiltins, ...ioPackages, ...uiPackages],
      [{ group: ['../*'], message: 'main/contract may import only from itself (and zod).' }],
    ),
  },
  {
    files: ['main/core/**/*.ts'],
    rules: restrict(
      'main/core is the pure domain: no I/O. Put sockets, files and databases in main/engine or main/store.',
      [
        ...ioPackages,
        ...uiPackages,
        ...nodeBuiltins.filter((m) => !['crypto', 'node:crypto', 'buffer', 'node:buffer', 'util', 'node:util'].includes(m)),
      ],
      [{ group: ['../engine/*', '../store/*', '../server/*', '../desktop/*', '../client/*', '../cli*'], message: 'main/core may import only main/contract and itself.' }],
    ),
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
