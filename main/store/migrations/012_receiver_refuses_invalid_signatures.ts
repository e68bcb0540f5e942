import type { Migration } from './types.js';

/** Never edit a migration that has shipped: add the next number instead. */
export const migration012: Migration = {
  version: 12,
  name: 'mock receiver endpoints that refuse invalid signatures',
  // An endpoint may answer 401 to a request whose X-Signature is invalid or missing, before its script, so
  // that it behaves as a correct receiver. Endpoints of earlier versions keep answering by script (0).
  up: `
    ALTER TABLE receivers ADD COLUMN refuse_invalid_signatures INTEGER NOT NULL DEFAULT 0;
  `,
};
