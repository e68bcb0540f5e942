/**
 * Where compact JSON (exact bytes on one line, as the engine builds a body) may wrap when it is shown:
 * between its tokens, never inside one.
 */

/**
 * `members`: the text cut after each `,` between members or elements and after each opening `{` or `[`:
 * `{`, `"userId":"user-7",`, `"properties":{`, `"total":42.5},` (each [from, to)). `values`: the string
 * values of keys, from their opening quote to after the closing one, which may go to the line after their
 * key's `:` when their member is longer than a line. Escaped quotes stay inside their string.
 */
export function jsonLayout(text: string): { members: [number, number][]; values: [number, number][] } {
  const members: [number, number][] = [];
  const values: [number, number][] = [];
  let memberStart = 0;
  let stringStart = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (stringStart >= 0) {
      if (c === '\\') i++;
      else if (c === '"') {
        if (text[stringStart - 1] === ':') values.push([stringStart, i + 1]);
        stringStart = -1;
      }
    } else if (c === '"') stringStart = i;
    else if (c === ',' || c === '{' || c === '[') {
      members.push([memberStart, i + 1]);
      memberStart = i + 1;
    }
  }
  if (memberStart < text.length) members.push([memberStart, text.length]);
  return { members, values };
}
