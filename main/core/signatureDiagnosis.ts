/**
 * Why does a receiver's X-Signature check fail? Pure (no I/O): given the shared secret, the body bytes and
 * a signature, it checks the signature (docs/behaviour.md §2: lowercase hex HMAC-SHA1 over the exact bytes; hex
 * case is not significant) and, when it does not match, tries the classic receiver mistakes one by one and
 * names the one that explains it.
 */
import { createHmac } from 'node:crypto';
import { jsonDepth } from './jsonDepth.js';

export type SignatureMistake =
  | 'sha1-prefix'
  | 'reserialised'
  | 'pretty-printed-2'
  | 'pretty-printed-4'
  | 'trailing-newline-added'
  | 'trailing-newline-stripped'
  | 'secret-whitespace'
  | 'sha256'
  | 'base64'
  | 'not-hex'
  | 'wrong-length'
  | 'unknown';

export interface SignatureDiagnosis {
  matches: boolean;
  /** The correct X-Signature for this secret and body: lowercase hex HMAC-SHA1. */
  expected: string;
  /** The mistakes that explain the signature, most telling first; empty when it matches. */
  mistakes: SignatureMistake[];
  /** `signature matches`, or the diagnosis in one sentence. */
  explanation: string;
}

export const NO_KNOWN_MISTAKE = 'no known mistake explains it: check the shared secret';

interface BodyVariant {
  mistake: Exclude<SignatureMistake, 'sha1-prefix' | 'secret-whitespace' | 'sha256' | 'base64' | 'not-hex' | 'wrong-length' | 'unknown'> | null;
  bytes: Uint8Array;
}

interface Encoding {
  mistakes: ('sha256' | 'base64')[];
  algorithm: 'sha1' | 'sha256';
  encoding: 'hex' | 'base64';
}

const ENCODINGS: readonly Encoding[] = [
  { mistakes: [], algorithm: 'sha1', encoding: 'hex' },
  { mistakes: ['sha256'], algorithm: 'sha256', encoding: 'hex' },
  { mistakes: ['base64'], algorithm: 'sha1', encoding: 'base64' },
  { mistakes: ['sha256', 'base64'], algorithm: 'sha256', encoding: 'base64' },
];

const EXPLAIN: Record<SignatureMistake, string> = {
  'sha1-prefix':
    'the signature has a "sha1=" prefix: X-Signature is the bare hex digest; strip the prefix before comparing',
  reserialised: 'matches the body re-serialised: your framework parsed and re-encoded the JSON; verify the raw bytes',
  'pretty-printed-2':
    'matches the body re-serialised pretty-printed with 2 spaces (JSON.stringify(body, null, 2)): something parsed and re-encoded the JSON; verify the raw bytes',
  'pretty-printed-4':
    'matches the body re-serialised pretty-printed with 4 spaces (JSON.stringify(body, null, 4)): something parsed and re-encoded the JSON; verify the raw bytes',
  'trailing-newline-added':
    'matches the body with a trailing newline added: the signed bytes end with a newline your copy lacks (trimmed by your code or lost in copy and paste); verify the exact bytes',
  'trailing-newline-stripped':
    "matches the body with its trailing newline stripped: your copy ends with a newline that was not signed (echo and editors add one; use printf '%s' or the raw request bytes)",
  'secret-whitespace':
    'matches the secret without its surrounding whitespace: the secret you gave has leading or trailing spaces or a newline (read from a file or .env?)',
  sha256: 'matches HMAC-SHA256 instead of HMAC-SHA1: X-Signature is HMAC-SHA1; use sha1',
  base64: "matches HMAC-SHA1 encoded as base64 instead of hex: X-Signature is lowercase hex (digest('hex'))",
  'not-hex': 'the signature is not hex: X-Signature is 40 lowercase hex characters (0-9, a-f)',
  'wrong-length': 'the signature has the wrong length: a hex HMAC-SHA1 is 40 characters',
  unknown: NO_KNOWN_MISTAKE,
};

function hmac(algorithm: 'sha1' | 'sha256', secret: string, body: Uint8Array, encoding: 'hex' | 'base64'): string {
  return createHmac(algorithm, secret).update(body).digest(encoding);
}

/** Lowercase hex for hex signatures; base64 compared as given, also in its URL-safe and unpadded forms. */
function same(computed: string, encoding: 'hex' | 'base64', given: string): boolean {
  if (encoding === 'hex') return computed === given.toLowerCase();
  const canonical = given.replace(/-/g, '+').replace(/_/g, '/');
  return computed === canonical || computed.replace(/=+$/, '') === canonical;
}

/**
 * Bodies nesting deeper than this are not re-serialised: JSON.stringify recurses (V8 overflows its stack at
 * a few thousand levels), and a receiver sees bodies from any sender. Hookbench's own bodies nest at most
 * LIMITS.maxDepth + 2 levels (docs/behaviour.md §7).
 */
export const RESERIALISE_MAX_DEPTH = 512;

function bodyVariants(body: Uint8Array): BodyVariant[] {
  const variants: BodyVariant[] = [{ mistake: null, bytes: body }];
  const buf = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const text = buf.toString('utf8');
  const seen = new Set<string>([text]);
  const add = (mistake: BodyVariant['mistake'], variant: string) => {
    if (seen.has(variant)) return;
    seen.add(variant);
    variants.push({ mistake, bytes: Buffer.from(variant, 'utf8') });
  };
  // Newline slips first: for compact JSON plus a newline they are the simpler story than re-serialisation.
  if (text.endsWith('\n')) {
    add('trailing-newline-stripped', text.slice(0, -1));
    add('trailing-newline-stripped', text.replace(/\r?\n$/, ''));
    add('trailing-newline-stripped', text.replace(/[\r\n]+$/, ''));
  }
  if (!text.endsWith('\n')) {
    add('trailing-newline-added', `${text}\n`);
    add('trailing-newline-added', `${text}\r\n`);
  }
  let parsed: { ok: true; value: unknown } | { ok: false } = { ok: false };
  if (jsonDepth(body) <= RESERIALISE_MAX_DEPTH) {
    try {
      parsed = { ok: true, value: JSON.parse(text) as unknown };
    } catch {
      // not JSON: no re-serialisation to try
    }
  }
  if (parsed.ok) {
    add('reserialised', JSON.stringify(parsed.value));
    add('pretty-printed-2', JSON.stringify(parsed.value, null, 2));
    add('pretty-printed-4', JSON.stringify(parsed.value, null, 4));
  }
  return variants;
}

export function diagnoseSignature(input: { secret: string; body: Uint8Array; signature: string }): SignatureDiagnosis {
  const { secret, body } = input;
  const expected = hmac('sha1', secret, body, 'hex');
  let given = input.signature.trim();
  const mistakes: SignatureMistake[] = [];
  const prefix = /^sha(1|256)=/i.exec(given);
  if (prefix) {
    given = given.slice(prefix[0].length);
    mistakes.push('sha1-prefix');
  }

  if (same(expected, 'hex', given)) {
    if (mistakes.length === 0) return { matches: true, expected, mistakes: [], explanation: 'signature matches' };
    return { matches: false, expected, mistakes, explanation: explain(mistakes, prefix?.[0]) };
  }

  const secrets: { mistake: 'secret-whitespace' | null; secret: string }[] = [{ mistake: null, secret }];
  if (secret.trim() !== secret && secret.trim() !== '') secrets.push({ mistake: 'secret-whitespace', secret: secret.trim() });

  // Plain mistakes first (one at a time), then combinations: the first hit is the most likely story.
  const variants = bodyVariants(body);
  const candidates: { mistakes: SignatureMistake[]; check: () => boolean }[] = [];
  for (const s of secrets) {
    for (const enc of ENCODINGS) {
      for (const v of variants) {
        const these: SignatureMistake[] = [...(v.mistake ? [v.mistake] : []), ...enc.mistakes, ...(s.mistake ? [s.mistake] : [])];
        if (these.length === 0) continue; // the correct computation, already compared
        candidates.push({ mistakes: these, check: () => same(hmac(enc.algorithm, s.secret, v.bytes, enc.encoding), enc.encoding, given) });
      }
    }
  }
  candidates.sort((a, b) => a.mistakes.length - b.mistakes.length);
  for (const c of candidates) {
    if (c.check()) {
      const all = [...c.mistakes, ...mistakes];
      return { matches: false, expected, mistakes: all, explanation: explain(all, prefix?.[0]) };
    }
  }

  // Nothing reproduces it: say what is visibly wrong with the signature itself, else blame the secret.
  let shape: SignatureMistake = 'unknown';
  let detail = '';
  if (given === '') {
    shape = 'wrong-length';
    detail = 'the signature is empty: a hex HMAC-SHA1 is 40 characters';
  } else if (!/^[0-9a-fA-F]+$/.test(given)) {
    shape = 'not-hex';
    const bad = [...given].find((c) => !/[0-9a-fA-F]/.test(c)) ?? '';
    detail = `${EXPLAIN['not-hex']}; found ${JSON.stringify(bad)}${/^[A-Za-z0-9+/_-]+=*$/.test(given) ? ' (is it base64 of something else?)' : ''}`;
  } else if (given.length !== 40) {
    shape = 'wrong-length';
    const hint =
      given.length === 64 ? ', 64 is SHA-256 (but not HMAC-SHA256 of this body with this secret either)' : given.length < 40 ? ': truncated?' : ': extra characters?';
    detail = `the signature is ${given.length} hex characters but a hex HMAC-SHA1 is 40${hint}`;
  }
  if (shape !== 'unknown') {
    const all: SignatureMistake[] = [shape, ...mistakes];
    return { matches: false, expected, mistakes: all, explanation: joinExplanations([detail, ...mistakes.map((m) => explainOne(m, prefix?.[0]))]) };
  }
  const all: SignatureMistake[] = ['unknown', ...mistakes];
  return { matches: false, expected, mistakes: all, explanation: explain(all, prefix?.[0]) };
}

function explainOne(m: SignatureMistake, prefix: string | undefined): string {
  if (m === 'sha1-prefix' && prefix && prefix.toLowerCase() !== 'sha1=') return EXPLAIN[m].replace('"sha1="', JSON.stringify(prefix));
  return EXPLAIN[m];
}

function explain(mistakes: readonly SignatureMistake[], prefix: string | undefined): string {
  return joinExplanations(mistakes.map((m) => explainOne(m, prefix)));
}

function joinExplanations(parts: readonly string[]): string {
  if (parts.length <= 1) return parts[0] ?? NO_KNOWN_MISTAKE;
  return `${parts[0]}; also ${parts.slice(1).join('; also ')}`;
}
