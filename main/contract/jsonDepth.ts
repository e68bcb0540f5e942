/**
 * The nesting depth of JSON text, measured without recursion (docs/behaviour.md §7). Pure, shared with the
 * renderer (the signature diagnosis uses it); the scanners built on it are in main/core/jsonDepth.ts.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;

/**
 * The deepest nesting of JSON text (UTF-8 bytes), in one pass with a counter: brackets and braces count
 * outside strings only. Measured at about a fifth of what JSON.parse takes for the same bytes (a 35 KB batch
 * of 100 calls: ~40 µs against ~200 µs on this 2-core machine).
 */
export function jsonDepth(bytes: Uint8Array): number {
  const n = bytes.length;
  let depth = 0;
  let max = 0;
  for (let i = 0; i < n; i++) {
    const c = bytes[i]!;
    if (c === QUOTE) {
      // To the closing quote: the first one not escaped. (A plain loop: most strings are short, and a call
      // to indexOf per string costs more than it saves.)
      i++;
      while (i < n) {
        const b = bytes[i]!;
        if (b === QUOTE) break;
        i += b === BACKSLASH ? 2 : 1;
      }
    } else if (c === LBRACE || c === LBRACKET) {
      if (++depth > max) max = depth;
    } else if (c === RBRACE || c === RBRACKET) {
      depth--;
    }
  }
  return max;
}
