/**
 * Reading JSON the store holds. Rows written before the nesting limit existed (docs/behaviour.md §7)
 * may nest thousands of levels: parsing them is safe (V8's JSON.parse does not recurse), but whatever
 * serialises them afterwards (an API answer, an event, a replay) would overflow the stack. Such a stored call
 * reads as a small object that says so; the message's body keeps the exact bytes as text.
 */
import { LIMITS } from '../contract/messageShapes.js';
import { scanJsonText, type TooDeep } from '../core/jsonDepth.js';

/** The key of the object that stands in for a stored call too deep to show. */
export const TOO_DEEP_KEY = '$tooDeep';

/** The field of stored JSON (a call or a body) that nests deeper than LIMITS.maxDepth, or null. */
export function storedTooDeep(json: string): TooDeep | null {
  return scanJsonText(json, { limit: LIMITS.maxDepth }).tooDeep;
}

/** A stored call: parsed, or, when it nests too deep, `{"$tooDeep": "..."}` explaining why it is not shown. */
export function parseStoredCall(json: string): Record<string, unknown> {
  const tooDeep = storedTooDeep(json);
  if (tooDeep) {
    return {
      [TOO_DEEP_KEY]: `not shown: ${tooDeep.field} nests ${tooDeep.levels} levels, more than ${LIMITS.maxDepth} (stored before the nesting limit); the body holds the exact bytes`,
    };
  }
  return JSON.parse(json) as Record<string, unknown>;
}
