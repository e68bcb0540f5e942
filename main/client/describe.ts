/** A value as an error message names it: its type as well as its text, so `"5s"` reads as the string it is. */
export function describe(v: unknown): string {
  if (v === undefined) return 'undefined';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (v instanceof Date) return 'a Date';
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  if (typeof v === 'object') {
    const tag = Object.prototype.toString.call(v).slice(8, -1);
    if (tag !== 'Object') return `a ${tag}`;
    return typeof (v as { toJSON?: unknown }).toJSON === 'function' ? 'an object with toJSON()' : 'an object';
  }
  return `${typeof v} ${String(v)}`;
}
