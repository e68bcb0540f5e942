/**
 * JSON numbers beyond a double's range (`1e400`) parse as Infinity, which JSON.stringify writes as `null`: the
 * receiver would get a value the client never sent. Such a number is refused, naming its field.
 */

/** A literal that may overflow: an exponent of three digits or more, or 309 digits in a row. */
const SUSPECT = /\d[eE][+]?0*[1-9]\d{2,}|\d{309,}/;

function walk(value: unknown, path: string): string | null {
  if (typeof value === 'number') return Number.isFinite(value) ? null : path;
  if (typeof value !== 'object' || value === null) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = walk(value[i], `${path}[${i}]`);
      if (found !== null) return found;
    }
    return null;
  }
  for (const [key, v] of Object.entries(value)) {
    const found = walk(v, path === '' ? key : `${path}.${key}`);
    if (found !== null) return found;
  }
  return null;
}

/**
 * The first field of `parsed` (parsed from `text`) holding a number that overflowed, with a message; null when
 * there is none. The text is searched first, so a body without a suspect literal is not walked.
 */
export function overflowingNumber(text: string, parsed: unknown): { field: string; message: string } | null {
  if (!SUSPECT.test(text)) return null;
  const found = walk(parsed, '');
  if (found === null) return null;
  const field = found === '' ? 'body' : found;
  return { field, message: `${field}: a number beyond the range of a double (±1.8e308) would be delivered as null; send it as a string` };
}
