/**
 * Nesting depth of JSON, measured without recursion (docs/behaviour.md §7): a call's fields nest at
 * most LIMITS.maxDepth levels. Anything recursive over user data (JSON.stringify included, which V8
 * implements recursively and which overflows the stack at a few thousand levels) must only see data that
 * passed one of these checks, so these never recurse themselves: the text scanner walks the bytes once with
 * a counter, and the value walker keeps its own stack.
 *
 * Levels: an object or an array is one level. `"properties": {"a": [1]}` nests 2 levels; the call object
 * itself is not counted. In a batch request (`{batch: [call, ...], context, ...}`) each call's fields are
 * measured the same way, and the request's own keys (`context`, `integrations`, merged into every call) count
 * as fields.
 */

import { JSON_BYTES, jsonStructure, valueDepth, type TooDeep } from '../contract/message/jsonDepth.js';

export { callNestingError, jsonDepth, tooDeepError, tooDeepField, valueDepth, type TooDeep } from '../contract/message/jsonDepth.js';

const { QUOTE, BACKSLASH, LBRACE, RBRACE, LBRACKET, RBRACKET } = JSON_BYTES;
const COMMA = 0x2c;
const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;

/** Containers whose key or index is kept while scanning: enough to name `batch[3].properties`. */
const TRACKED = 4;

export interface JsonScan {
  /** The deepest nesting of the whole document (0 for a scalar, 1 for `{}`). */
  maxDepth: number;
  /** The first field that nests deeper than the limit, or null. */
  tooDeep: TooDeep | null;
  /**
   * With `shape: 'batch'` and a field too deep: how many items the top-level `batch` array holds (null
   * otherwise), to count the refused calls without parsing.
   */
  batchLength: number | null;
  /** With a field too deep: the top-level `"writeKey"` string, when the document has one (null otherwise). */
  writeKey: string | null;
  /** Whether a number literal may lie beyond a double's range (jsonStructure's longNumber). */
  longNumber: boolean;
}

export interface ScanOptions {
  /** Levels a field may nest (Infinity: only measure). */
  limit: number;
  /**
   * Where the fields are. `call` (default): the document is one call, its members are the fields.
   * `batch`: the document is a batch request, the members of each `batch[i]` are fields, and so are the
   * request's other members.
   */
  shape?: 'call' | 'batch';
}

/**
 * Scans JSON text (UTF-8 bytes) without parsing it: jsonStructure first; only when some field may be too deep
 * (fields sit at least one level below the document) a second pass finds it, names it and measures it.
 * Malformed JSON is scanned as far as it goes; the parser that runs afterwards is what refuses it.
 */
export function scanJson(bytes: Uint8Array, options: ScanOptions): JsonScan {
  const { depth: maxDepth, longNumber } = jsonStructure(bytes);
  if (maxDepth - 1 <= options.limit) return { maxDepth, tooDeep: null, batchLength: null, writeKey: null, longNumber };
  return { maxDepth, longNumber, ...findTooDeep(bytes, options) };
}

// The scanner's helpers are module functions rather than closures inside findTooDeep, so a scan allocates none;
// its byte loop stays in one piece (it is the part that runs for every byte).

/** Where the string opening at `open` closes: its first quote not escaped, or the last byte when it never does (as in jsonDepth). */
function closingQuote(bytes: Uint8Array, open: number): number {
  const n = bytes.length;
  let j = open + 1;
  while (j < n) {
    const b = bytes[j]!;
    if (b === QUOTE) break;
    j += b === BACKSLASH ? 2 : 1;
  }
  return j >= n ? n - 1 : j;
}

/** The JSON string from `start` to `end` (its quotes included), decoded; null when it is not one. */
function stringAt(bytes: Uint8Array, start: number, end: number): string | null {
  try {
    const value: unknown = JSON.parse(utf8(bytes.subarray(start, end + 1)));
    return typeof value === 'string' ? value : null;
  } catch {
    return null;
  }
}

/** The name of the field at depth `anchor` from the tracked keys and indexes above it: `batch[3].properties`, `body[0]`. */
function fieldPath(bytes: Uint8Array, anchor: number, isArray: Uint8Array, index: Int32Array, keyStart: Int32Array, keyEnd: Int32Array): string {
  let out = '';
  for (let d = 1; d < anchor; d++) {
    if (isArray[d]) out += `[${index[d]}]`;
    else out += `${out === '' ? '' : '.'}${stringAt(bytes, keyStart[d]!, keyEnd[d]!) ?? '?'}`;
  }
  return out === '' || out.startsWith('[') ? `body${out}` : out;
}

function findTooDeep(bytes: Uint8Array, options: ScanOptions): Omit<JsonScan, 'maxDepth' | 'longNumber'> {
  const { limit } = options;
  const batchShape = options.shape === 'batch';
  const n = bytes.length;
  // Per tracked depth d (1..TRACKED): container kind, current index / key span, whether a key comes next,
  // whether it holds anything yet.
  const isArray = new Uint8Array(TRACKED + 1);
  const index = new Int32Array(TRACKED + 1);
  const keyStart = new Int32Array(TRACKED + 1);
  const keyEnd = new Int32Array(TRACKED + 1);
  const expectKey = new Uint8Array(TRACKED + 1);
  const nonEmpty = new Uint8Array(TRACKED + 1);
  let depth = 0;
  /** The current key of the top-level object, decoded. */
  let topKey: string | null = null;
  let writeKey: string | null = null;
  let batchLength: number | null = null;
  let tooDeep: { field: string; anchor: number; deepest: number } | null = null;
  let measuring = false;

  for (let i = 0; i < n; i++) {
    const c = bytes[i]!;
    if (c === QUOTE) {
      const j = closingQuote(bytes, i);
      if (depth >= 1 && depth <= TRACKED) {
        if (!isArray[depth] && expectKey[depth]) {
          expectKey[depth] = 0;
          keyStart[depth] = i;
          keyEnd[depth] = j;
          if (depth === 1) topKey = stringAt(bytes, i, j);
        } else if (depth === 1 && topKey === 'writeKey') {
          writeKey = stringAt(bytes, i, j);
        }
        nonEmpty[depth] = 1;
      }
      i = j;
      continue;
    }
    switch (c) {
      case LBRACE:
      case LBRACKET: {
        if (depth >= 1 && depth <= TRACKED) nonEmpty[depth] = 1;
        depth++;
        if (depth <= TRACKED) {
          isArray[depth] = c === LBRACKET ? 1 : 0;
          index[depth] = 0;
          expectKey[depth] = c === LBRACE ? 1 : 0;
          nonEmpty[depth] = 0;
        }
        if (measuring) {
          if (depth > tooDeep!.deepest) tooDeep!.deepest = depth;
        } else if (tooDeep === null && depth > limit) {
          // Fields sit at depth 2 (the document is the call), or 4 inside a batch (request, batch, call).
          const anchor = batchShape && !isArray[1] && topKey === 'batch' ? 4 : 2;
          if (depth - anchor + 1 > limit) {
            tooDeep = { field: fieldPath(bytes, anchor, isArray, index, keyStart, keyEnd), anchor, deepest: depth };
            measuring = true;
          }
        }
        break;
      }
      case RBRACE:
      case RBRACKET:
        if (depth === 0) break; // malformed: the parser refuses it
        if (depth === 2 && batchShape && isArray[2] && !isArray[1] && topKey === 'batch') batchLength = nonEmpty[2] ? index[2]! + 1 : 0;
        if (measuring && depth === tooDeep!.anchor) measuring = false;
        depth--;
        break;
      case COMMA:
        if (depth >= 1 && depth <= TRACKED) {
          if (isArray[depth]) index[depth]!++;
          else expectKey[depth] = 1;
        }
        break;
      case SPACE:
      case TAB:
      case LF:
      case CR:
        break;
      default:
        // ':' or a literal (number, true, false, null)
        if (depth >= 1 && depth <= TRACKED && c !== 0x3a) nonEmpty[depth] = 1;
    }
  }
  return {
    tooDeep: tooDeep ? { field: tooDeep.field, levels: tooDeep.deepest - tooDeep.anchor + 1 } : null,
    batchLength,
    writeKey,
  };
}

/** `scanJson` over a string (stored JSON). */
export function scanJsonText(json: string, options: ScanOptions): JsonScan {
  return scanJson(Buffer.from(json, 'utf8'), options);
}

function utf8(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

/** What stands in for JSON too deep to show (events, API answers). */
export function tooDeepMarker(limit: number): string {
  return `[nested deeper than ${limit} levels: not shown]`;
}

/**
 * The value itself when it nests at most `maxDepth` levels; else a copy in which every object or array
 * below that depth is replaced by tooDeepMarker(maxDepth). The copy recurses, but never deeper than
 * `maxDepth`.
 */
export function boundDepth<T>(value: T, maxDepth: number): T {
  if (valueDepth(value, maxDepth) <= maxDepth) return value;
  const marker = tooDeepMarker(maxDepth);
  const copy = (v: unknown, depth: number): unknown => {
    if (typeof v !== 'object' || v === null) return v;
    if (depth >= maxDepth) return marker;
    if (Array.isArray(v)) return v.map((x) => copy(x, depth + 1));
    if (typeof (v as { toJSON?: unknown }).toJSON === 'function') return v; // Dates and the like: flat
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = copy(x, depth + 1);
    return out;
  };
  return copy(value, 0) as T;
}
