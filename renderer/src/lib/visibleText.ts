/**
 * Names and identifiers come from SDKs and users: a bidi override (U+202E) makes "Order \u202Edetelpmoc" read
 * "Order completed", and zero-width or control characters hide what is there. Wherever a name is shown in a
 * list or header, such characters are shown as what they are, never applied.
 */

/** C0 and C1 controls, bidi marks, embeddings, overrides and isolates, zero-width characters, the BOM. */
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/gu;

const NAMES: Record<number, string> = {
  0x09: 'tab',
  0x0a: 'line feed',
  0x0d: 'carriage return',
  0x061c: 'Arabic letter mark',
  0x200b: 'zero-width space',
  0x200c: 'zero-width non-joiner',
  0x200d: 'zero-width joiner',
  0x200e: 'left-to-right mark',
  0x200f: 'right-to-left mark',
  0x2028: 'line separator',
  0x2029: 'paragraph separator',
  0x202a: 'left-to-right embedding',
  0x202b: 'right-to-left embedding',
  0x202c: 'pop directional formatting',
  0x202d: 'left-to-right override',
  0x202e: 'right-to-left override',
  0x2060: 'word joiner',
  0x2066: 'left-to-right isolate',
  0x2067: 'right-to-left isolate',
  0x2068: 'first strong isolate',
  0x2069: 'pop directional isolate',
  0xfeff: 'byte order mark',
};

export interface HiddenCharacter {
  /** `U+202E` */
  code: string;
  /** `right-to-left override` (or `control character`) */
  name: string;
}

export type VisiblePart = string | HiddenCharacter;

/** The text cut into plain runs and the hidden characters between them; one plain run when there are none. */
export function visibleParts(text: string): VisiblePart[] {
  const parts: VisiblePart[] = [];
  let last = 0;
  for (const match of text.matchAll(HIDDEN)) {
    if (match.index > last) parts.push(text.slice(last, match.index));
    const cp = match[0].codePointAt(0)!;
    parts.push({ code: `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`, name: NAMES[cp] ?? 'control character' });
    last = match.index + match[0].length;
  }
  if (last < text.length || parts.length === 0) parts.push(text.slice(last));
  return parts;
}

/** The text as a screen shows it: each hidden character as ⟨U+202E⟩. */
export function visibleString(text: string): string {
  return visibleParts(text)
    .map((p) => (typeof p === 'string' ? p : `⟨${p.code}⟩`))
    .join('');
}
