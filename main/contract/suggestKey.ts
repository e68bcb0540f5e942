/** The name a misspelt one most likely meant; free of zod, so ingestion's thread can use it too. */

/**
 * The known key a misspelt one most likely meant: the same but for case (`timeoutms`), a few letters off
 * (`header`, `bacth`), or a part of it (`secret` for `sharedSecret`); null when none is close.
 */
export function suggestKey(unknown: string, known: readonly string[]): string | null {
  const u = unknown.toLowerCase();
  let best: { key: string; score: number } | null = null;
  for (const key of known) {
    const k = key.toLowerCase();
    let score: number | null = null;
    if (k === u) score = 0;
    else {
      const d = editDistance(u, k);
      if (d <= Math.max(1, Math.floor(Math.min(u.length, k.length) / 3))) score = d;
      else if (Math.min(u.length, k.length) >= 4 && (k.includes(u) || u.includes(k))) score = 10 + Math.abs(k.length - u.length);
    }
    if (score !== null && (!best || score < best.score)) best = { key, score };
  }
  return best?.key ?? null;
}

/**
 * Edit distance with two neighbouring letters swapped as one edit (optimal string alignment; keys are short):
 * `bacth` is one slip from `batch`, as a typist makes it, not two.
 */
function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      let d = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      current[j] = d;
    }
    before = previous;
    previous = current;
  }
  return previous[b.length]!;
}
