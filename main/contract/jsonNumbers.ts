/**
 * JSON numbers a double does not keep: beyond its range (`1e400` parses as Infinity, which JSON.stringify
 * writes as `null`), or with more digits than it holds (`9007199254740993` parses as 9007199254740992, and
 * that is what would be signed and delivered). The receiver would get a value the client never sent, so such
 * a number is refused, naming its field. A number any JSON encoder writes from a double (the shortest text
 * that reads back as it) is always kept.
 */

/**
 * A literal worth reading closely: an exponent of three digits or more, or 16 digits or more (a double keeps
 * 15 for certain; fewer always read back as written). Matches inside strings too: that only costs a scan.
 */
const SUSPECT = /\d[eE][+]?0*[1-9]\d{2,}|\d(?:\.?\d){15,}/;

/** A decimal as sign, significant digits (no leading or trailing zeros) and the exponent of its last digit. */
function decimalOf(literal: string): { negative: boolean; digits: string; exponent: number } {
  const m = /^(-?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(literal);
  if (!m) return { negative: false, digits: literal, exponent: 0 };
  const whole = `${m[2] ?? ''}${m[3] ?? ''}`;
  let exponent = Number(m[4] ?? 0) - (m[3]?.length ?? 0);
  let digits = whole.replace(/^0+/, '');
  const trailing = digits.length - digits.replace(/0+$/, '').length;
  digits = digits.slice(0, digits.length - trailing);
  exponent += trailing;
  return { negative: m[1] === '-' && digits !== '', digits, exponent: digits === '' ? 0 : exponent };
}

/** Whether the double `value` has exactly the decimal value `literal` writes (its shortest text is the same number). */
function kept(literal: string, value: number): boolean {
  if (!Number.isFinite(value)) return false;
  const a = decimalOf(literal);
  const b = decimalOf(String(value).replace(/e\+/, 'e'));
  return a.negative === b.negative && a.digits === b.digits && a.exponent === b.exponent;
}

/** The first number literal of `text` (outside strings) a double does not keep: where it starts, its text and what it reads as. */
export function firstUnkeptLiteral(text: string): { position: number; literal: string; value: number } | null {
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // To the closing quote: the first one not escaped.
      i++;
      while (i < n && text.charCodeAt(i) !== 0x22) i += text.charCodeAt(i) === 0x5c ? 2 : 1;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      const start = i;
      while (i + 1 < n && /[-+.eE0-9]/.test(text[i + 1]!)) i++;
      const literal = text.slice(start, i + 1);
      if (!SUSPECT.test(literal)) continue;
      const value = Number(literal);
      if (!kept(literal, value)) return { position: start, literal, value };
    }
  }
  return null;
}

/** The path of the first number `matches` picks, depth first in document order; an explicit stack, so any depth. */
function pathOf(root: unknown, matches: (n: number) => boolean): string | null {
  const stack: [unknown, string][] = [[root, '']];
  while (stack.length > 0) {
    const [value, path] = stack.pop()!;
    if (typeof value === 'number') {
      if (matches(value)) return path;
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
 * The first field of `parsed` (parsed from `text`) holding a number a double did not keep, with a message;
 * null when there is none. `suspect`: whether the text may hold one (scanJson's longNumber, found on the bytes
 * in the pass that measures nesting); by default the text is searched for a suspect literal first, so a body
 * without one is not scanned.
 */
export function unkeptNumber(text: string, parsed: unknown, suspect: boolean = SUSPECT.test(text)): { field: string; message: string } | null {
  if (!suspect) return null;
  const found = firstUnkeptLiteral(text);
  if (!found) return null;
  const overflow = !Number.isFinite(found.value);
  const path = pathOf(parsed, overflow ? (n) => !Number.isFinite(n) : (n) => Object.is(n, found.value));
  const field = path === null || path === '' ? 'body' : path;
  return { field, message: overflow ? beyondDouble(field) : beyondDigits(field, found.literal, found.value) };
}

/** The one sentence every face says about such a number, after the field that holds it. */
export function beyondDouble(field: string): string {
  return `${field}: a number beyond the range of a double (±1.8e308) would be delivered as null; send it as a string`;
}

/** The sentence for a number with more digits than a double keeps. */
export function beyondDigits(field: string, literal: string, value: number): string {
  const shown = literal.length > 40 ? `${literal.slice(0, 37)}...` : literal;
  return `${field}: ${shown} would be delivered as ${String(value)} (a JSON number is a double: 15 significant digits are always kept, more only for some numbers); send it as a string`;
}
