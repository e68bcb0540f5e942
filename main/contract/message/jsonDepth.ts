/**
 * Nesting depth, measured without recursion (docs/behaviour.md §7): of JSON text (jsonDepth) and of values
 * (valueDepth), and the refusal of a call that nests too deep. Pure, shared with the renderer (the signature
 * diagnosis and the composer's body preview use it); the scanners built on it are in main/domain/jsonDepth.ts.
 */
import { LIMITS } from './messageShapes.js';
import type { ApiError } from '../result.js';

/** The bytes of JSON's structure, for the scanners here and in main/domain/jsonDepth.ts. */
export const JSON_BYTES = { QUOTE: 0x22, BACKSLASH: 0x5c, LBRACE: 0x7b, RBRACE: 0x7d, LBRACKET: 0x5b, RBRACKET: 0x5d } as const;
const { QUOTE, BACKSLASH, LBRACE, RBRACE, LBRACKET, RBRACKET } = JSON_BYTES;

/**
 * The deepest nesting of JSON text (UTF-8 bytes), in one pass with a counter: brackets and braces count
 * outside strings only, so it costs far less than parsing the same bytes and can run before the parse.
 */
export function jsonDepth(bytes: Uint8Array): number {
  return jsonStructure(bytes).depth;
}

/** What one pass over JSON text's structure finds (jsonStructure). */
export interface JsonStructure {
  /** The deepest nesting (0 for a scalar, 1 for `{}`). */
  depth: number;
  /**
   * Whether a number literal may be one a double does not keep: an exponent of three digits or more (`1e400`,
   * `2E+0999`: Infinity) or 16 digits or more (`9007199254740993`: read as …992). Only then is the text read
   * closely (contract/jsonNumbers.ts).
   */
  longNumber: boolean;
}

const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;
const PLUS = 0x2b;
const DOT = 0x2e;
/** Digits from which a literal may hold more than a double keeps (15 always read back as written). */
const KEPT_DIGITS = 16;

const isDigit = (b: number | undefined): boolean => b !== undefined && b >= DIGIT_0 && b <= DIGIT_9;

/**
 * jsonDepth, and whether a number may not be kept by a double, in the same pass: numbers sit outside strings, where the
 * pass looks at every byte anyway (a separate search of the text for such literals cost more than the pass).
 */
export function jsonStructure(bytes: Uint8Array): JsonStructure {
  const n = bytes.length;
  let depth = 0;
  let max = 0;
  let digits = 0;
  let longNumber = false;
  for (let i = 0; i < n; i++) {
    const c = bytes[i]!;
    if (c >= DIGIT_0 && c <= DIGIT_9) {
      if (++digits >= KEPT_DIGITS) longNumber = true;
      continue;
    }
    // A fraction's digits count with the integer part's: outside strings a point is only ever in a number.
    if (c === DOT && digits > 0) continue;
    if ((c === 0x65 || c === 0x45) && digits > 0 && !longNumber) longNumber = largeExponent(bytes, i + 1);
    digits = 0;
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
  return { depth: max, longNumber };
}

/** Whether the exponent digits from `at` (after an optional `+` and leading zeros) number three or more. */
function largeExponent(bytes: Uint8Array, at: number): boolean {
  let j = at;
  if (bytes[j] === PLUS) j++;
  while (bytes[j] === DIGIT_0) j++;
  return isDigit(bytes[j]) && isDigit(bytes[j + 1]) && isDigit(bytes[j + 2]);
}

export interface TooDeep {
  /** The field whose value nests too deep: `properties`, `batch[3].properties`, `context`. */
  field: string;
  /** How many levels that field's value nests. */
  levels: number;
}

/**
 * How many levels a value nests (0 for a scalar), walked with an explicit stack. Stops counting at `cap`
 * (returns cap + 1 then). An object met twice (shared, or a cycle from an in-process caller) is walked once.
 */
export function valueDepth(value: unknown, cap = 1_000_000): number {
  if (typeof value !== 'object' || value === null) return 0;
  // Every call of every message is measured (docs/behaviour.md §7), so the common case, a small tree, is
  // walked without the bookkeeping that shared objects and cycles need; a walk that visits more than
  // TREE_WALK_NODES containers (a cycle, shared objects, or simply a large value) starts again with it.
  const tree = treeDepth(value, cap);
  if (tree >= 0) return tree;
  const seen = new Set<object>();
  const stack: [object, number][] = [[value, 1]];
  let deepest = 0;
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (seen.has(node)) continue;
    seen.add(node);
    if (depth > deepest) deepest = depth;
    if (deepest > cap) return cap + 1;
    const children: unknown[] = Array.isArray(node) ? node : Object.values(node);
    for (const child of children) if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** More containers than a message's 32 KiB can hold (`[]` is two bytes): a walk past this is not a plain call. */
const TREE_WALK_NODES = 20_000;

/**
 * valueDepth of a value that is a tree (as parsed JSON always is), without a set of the objects seen: -1
 * when it visits more than TREE_WALK_NODES containers or nests deeper than `cap`, so that the caller walks
 * again with one.
 */
function treeDepth(value: object, cap: number): number {
  // The walk's stacks are kept from one call to the next (it runs for every field of every call), with a top
  // of their own: `length = 0` would let V8 drop their storage and each walk grow it again. A walk begun inside
  // another (a getter of an in-process caller's object) has stacks of its own.
  if (walking) return walkTree([], [], value, cap);
  walking = true;
  try {
    return walkTree(treeNodes, treeDepths, value, cap);
  } finally {
    walking = false;
  }
}

const treeNodes: (object | undefined)[] = [];
const treeDepths: number[] = [];
let walking = false;

/** The walk itself, on `nodes` and `depths` as stacks from index 0; it leaves no node in `nodes`. */
function walkTree(nodes: (object | undefined)[], depths: number[], value: object, cap: number): number {
  let top = 0;
  nodes[top] = value;
  depths[top++] = 1;
  let deepest = 0;
  let visited = 0;
  try {
    while (top > 0) {
      const node = nodes[--top]!;
      nodes[top] = undefined;
      const depth = depths[top]!;
      if (depth > deepest) {
        if (depth > cap) return -1;
        deepest = depth;
      }
      if (++visited > TREE_WALK_NODES) return -1;
      if (Array.isArray(node)) {
        for (let i = 0; i < node.length; i++) {
          const child: unknown = node[i];
          if (typeof child === 'object' && child !== null) {
            nodes[top] = child;
            depths[top++] = depth + 1;
          }
        }
      } else {
        for (const key in node) {
          if (!Object.hasOwn(node, key)) continue;
          const child: unknown = (node as Record<string, unknown>)[key];
          if (typeof child === 'object' && child !== null) {
            nodes[top] = child;
            depths[top++] = depth + 1;
          }
        }
      }
    }
    return deepest;
  } finally {
    // Nothing the walk saw is kept past it (an early return leaves nodes on the stack).
    for (let i = 0; i < top; i++) nodes[i] = undefined;
  }
}

/** The first field of a call (an object) that nests deeper than `limit`, with how deep; null when none does. */
export function tooDeepField(call: Record<string, unknown>, limit: number): TooDeep | null {
  for (const field in call) {
    if (!Object.hasOwn(call, field)) continue;
    const levels = valueDepth(call[field]);
    if (levels > limit) return { field, levels };
  }
  return null;
}

/**
 * The refusal of a call nesting too deep (docs/behaviour.md §7): `batch[1].properties: nests 5001
 * levels > 64`. `prefix` is where the call sits in the input (`call`, `messages[1].call`).
 */
export function tooDeepError(tooDeep: TooDeep, prefix = ''): ApiError {
  const field = prefix ? `${prefix}.${tooDeep.field}` : tooDeep.field;
  const index = /^batch\[(\d+)\]/.exec(field);
  return {
    code: 'nesting_too_deep',
    message: `${field}: nests ${tooDeep.levels} levels > ${LIMITS.maxDepth}`,
    field,
    ...(index ? { index: Number(index[1]) } : {}),
    limit: LIMITS.maxDepth,
    value: tooDeep.levels,
  };
}

/** The first field of a call nesting deeper than LIMITS.maxDepth, as a refusal; null when none does. */
export function callNestingError(call: Record<string, unknown>, prefix: string): ApiError | null {
  const tooDeep = tooDeepField(call, LIMITS.maxDepth);
  return tooDeep ? tooDeepError(tooDeep, prefix) : null;
}
