/**
 * The bounds on what one API call may ask for, exports and imports included, apart from the schemas that
 * enforce them (commandInputs.ts, importMessages.ts): the renderer reads them without loading zod.
 */

/** Bounds on what one API call may ask for. */
export const API_LIMITS = {
  pageSize: 1000,
  sendMessagesBatch: 1000,
  /** A clock move at most one year long. */
  advanceMs: 365 * 24 * 3_600_000,
  /** A list filter's text (user id, event, body search). */
  filterChars: 1000,
} as const;

/** One export holds at most this many messages (newest first). */
export const EXPORT_LIMIT = 10_000;
/**
 * One export's text is at most this many bytes of UTF-8 (the newest messages that fit): what one import
 * takes (IMPORT_LIMITS), so every export can be imported again, and what an export holds in memory.
 */
export const EXPORT_TEXT_BYTES = 16 * 1024 * 1024;

/** What one import takes is exactly what one export writes at most: every export can be imported again. */
export const IMPORT_LIMITS = {
  /** Bytes (UTF-8) of export text one import takes: an export's most (EXPORT_TEXT_BYTES). */
  textBytes: EXPORT_TEXT_BYTES,
  /** The same bound in characters, which a text within textBytes never has more of (each takes a byte or more). */
  textChars: EXPORT_TEXT_BYTES,
  /** Messages one import replays: an export's most (EXPORT_LIMIT). */
  messages: EXPORT_LIMIT,
  /**
   * The typed-API request that carries the text over HTTP: the text as a JSON string, where an export's
   * quotes, backslashes and line breaks take two bytes each, and the request's own few fields.
   */
  requestBytes: 2 * EXPORT_TEXT_BYTES + 64 * 1024,
} as const;
