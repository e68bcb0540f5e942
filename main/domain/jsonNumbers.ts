/**
 * JSON numbers beyond a double's range (`1e400`) parse as Infinity, which JSON.stringify writes as `null`: the
 * receiver would get a value the client never sent. Such a number is refused, naming its field.
 */

/** A literal that may overflow: an exponent of three digits or more, or 309 digits in a row. */
const SUSPECT = /\d[eE][+]?0*[1-9]\d{2,}|\d{309,}/;

/** The path of the first non-finite number, depth first in document order; an explicit stack, so any depth. */
function walk(root: unknown): string | null {
  const stack: [unknown, string][] = [[root, '']];
  while (stack.length > 0) {
    const [value, path] = stack.pop()!;
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) return path;
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    // Pushed last to first, so the first child is looked at first.
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], `${path}[${i}]`]);
    } else {
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, v] = entries[i]!;
        stack.push([v, path === '' ? key : `${path}.${key}`]);
      }
    }
  }
  return null;
}

/**
 * The first field of `parsed` (parsed from `text`) holding a number that overflowed, with a message; null when
 * there is none. The text is searched first, so a body without a suspect literal is not walked.
 */
export function overflowingNumber(text: string, parsed: unknown): { field: string; message: string } | null {
  return overflowIn(parsed, SUSPECT.test(text));
}

/**
 * overflowingNumber, when the caller already knows whether the text holds a suspect literal (`suspect`: scanJson's
 * longNumber, found on the bytes in the pass that measures nesting): nothing is walked without one.
 */
export function overflowIn(parsed: unknown, suspect: boolean): { field: string; message: string } | null {
  if (!suspect) return null;
  const found = walk(parsed);
  if (found === null) return null;
  const field = found === '' ? 'body' : found;
  return { field, message: beyondDouble(field) };
}

/** The one sentence every face says about such a number, after the field that holds it. */
export function beyondDouble(field: string): string {
  return `${field}: a number beyond the range of a double (±1.8e308) would be delivered as null; send it as a string`;
}
