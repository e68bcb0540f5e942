import type { Migration } from './types.js';

/** Never edit a migration that has shipped: add the next number instead. */
export const migration016: Migration = {
  version: 16,
  name: "captures say when hookbench check sent them directly (not through the engine): its forgeries and probes",
  // A check run sends what no destination can send (a body changed after signing, a signature of other bytes, the
  // diagnosis' probes) straight to the URL. Captured by a mock endpoint, such a request is 'check', so that the
  // Receiver screen says it was sent on purpose instead of suggesting a fix. Null for everything else.
  up: `
    ALTER TABLE captures ADD COLUMN sent_by TEXT;
  `,
};
