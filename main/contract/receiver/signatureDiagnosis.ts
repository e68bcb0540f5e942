/**
 * Why does a receiver's X-Signature check fail? Given the shared secret, the body bytes and a signature, it
 * checks the signature (docs/behaviour.md §2: lowercase hex HMAC-SHA1 over the exact bytes; hex case is not
 * significant) and, when it does not match, tries the classic receiver mistakes one by one and names the one
 * that explains it.
 *
 * One implementation for every face: the CLI's `verify`, the mock receiver's verdicts and the UI's Signature
 * panel. It is pure (no Node, no DOM): the HMAC and UTF-8 come from the caller, synchronously
 * (`diagnoseSignatureWith`, node:crypto in main/domain/signatureDiagnosis.ts) or asynchronously
 * (`diagnoseSignatureAsync`, Web Crypto in the renderer). The steps are a generator that asks for each digest
 * it needs, so both drivers run the very same logic.
 */
import { jsonDepth } from '../message/jsonDepth.js';

export type SignatureMistake =
  | 'sha1-prefix'
  | 'reserialised'
  | 'pretty-printed-2'
  | 'pretty-printed-4'
  | 'python-json-dumps'
  | 'trailing-newline-added'
  | 'trailing-newline-stripped'
  | 'secret-whitespace'
  | 'secret-newline'
  | 'uppercase-hex'
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

export interface SignatureInput {
  secret: string;
  body: Uint8Array;
  signature: string;
  /**
   * The signature is one a receiver computed to compare with X-Signature (verify, "Your server's signature"):
   * upper-case hex is then a mistake, since a case-sensitive comparison with the lowercase header fails. A
   * header as received (the mock receiver's verdict) is read in any case.
   */
  computedByReceiver?: boolean;
}

export type HmacAlgorithm = 'sha1' | 'sha256';

/** One digest the diagnosis needs: HMAC(algorithm) keyed with the secret's UTF-8 bytes, over `body`. */
export interface HmacRequest {
  algorithm: HmacAlgorithm;
  secret: string;
  body: Uint8Array;
}

/** The raw digest bytes. */
export type Hmac = (request: HmacRequest) => Uint8Array;
export type AsyncHmac = (request: HmacRequest) => Promise<Uint8Array>;

/** UTF-8 as the platform does it (Buffer, TextEncoder/TextDecoder): invalid bytes decode to U+FFFD. */
export interface Utf8 {
  encode(text: string): Uint8Array;
  decode(bytes: Uint8Array): string;
}

export const NO_KNOWN_MISTAKE = 'no known mistake explains it: check the shared secret';

/**
 * Bodies nesting deeper than this are not re-serialised: JSON.stringify recurses (V8 overflows its stack at
 * a few thousand levels), and a receiver sees bodies from any sender. Hookbench's own bodies nest at most
 * LIMITS.maxDepth + 2 levels (docs/behaviour.md §7).
 */
export const RESERIALISE_MAX_DEPTH = 512;

export type BodyMistake = 'reserialised' | 'pretty-printed-2' | 'pretty-printed-4' | 'python-json-dumps' | 'trailing-newline-added' | 'trailing-newline-stripped';

/** The body as it was (`mistake: null`) or as a mistaken signer would have hashed it. */
export interface BodyVariant {
  mistake: BodyMistake | null;
  bytes: Uint8Array;
}

interface Encoding {
  mistakes: ('sha256' | 'base64')[];
  algorithm: HmacAlgorithm;
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
  'python-json-dumps':
    "matches the body re-serialised by Python's json.dumps (a space after each , and :): something parsed and re-encoded the JSON (request.json, json.loads); sign the raw bytes (request.get_data())",
  'trailing-newline-added':
    'matches the body with a trailing newline added: the signature was computed over these bytes plus a newline at the end (added by the code that hashed them, or missing from the body given here: copy and paste drops it); hash the exact bytes received',
  'trailing-newline-stripped':
    "matches the body with its trailing newline stripped: the signature was computed over these bytes without their final newline (trimmed by the code that hashed them, or added to the body given here: echo and editors add one, printf '%s' does not); hash the exact bytes received",
  'secret-whitespace':
    'matches the secret without its surrounding whitespace: the secret you gave has leading or trailing spaces or a newline (read from a file or .env?)',
  'secret-newline':
    'matches the secret with a newline added at its end: one copy of the secret ends with a newline (read from a file or .env without trimming it)',
  'uppercase-hex':
    'matches the digest as upper-case hex: X-Signature is lowercase hex; compare the two case-insensitively (or lower-case them)',
  sha256: 'matches HMAC-SHA256 instead of HMAC-SHA1: X-Signature is HMAC-SHA1; use sha1',
  base64: "matches HMAC-SHA1 encoded as base64 instead of hex: X-Signature is lowercase hex (digest('hex'))",
  'not-hex': 'the signature is not hex: X-Signature is 40 lowercase hex characters (0-9, a-f)',
  'wrong-length': 'the signature has the wrong length: a hex HMAC-SHA1 is 40 characters',
  unknown: NO_KNOWN_MISTAKE,
};

const HEX = '0123456789abcdef';
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Lowercase hex, as X-Signature is written. */
export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += HEX[b >> 4]! + HEX[b & 15]!;
  return out;
}

/** Standard base64 with padding (what Node's digest('base64') gives). */
export function toBase64(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i]!;
    const b = bytes[i + 1];
    const c = bytes[i + 2];
    out += BASE64[a >> 2]! + BASE64[((a & 3) << 4) | ((b ?? 0) >> 4)]!;
    out += b === undefined ? '=' : BASE64[((b & 15) << 2) | ((c ?? 0) >> 6)]!;
    out += c === undefined ? '=' : BASE64[c & 63]!;
  }
  return out;
}

/** Lowercase hex for hex signatures; base64 compared as given, also in its URL-safe and unpadded forms. */
function same(computed: string, encoding: 'hex' | 'base64', given: string): boolean {
  if (encoding === 'hex') return computed === given.toLowerCase();
  const canonical = given.replace(/-/g, '+').replace(/_/g, '/');
  return computed === canonical || computed.replace(/=+$/, '') === canonical;
}

/**
 * The body bytes and each form a mistaken signer hashes instead (a newline added or stripped, re-serialised,
 * pretty-printed, Python's json.dumps with and without ensure_ascii), the original first, no form twice.
 * `hookbench check` signs its probes over these forms, so a receiver's mistake is named in these words.
 */
export function bodyVariants(body: Uint8Array, utf8: Utf8): BodyVariant[] {
  const variants: BodyVariant[] = [{ mistake: null, bytes: body }];
  const text = utf8.decode(body);
  const seen = new Set<string>([text]);
  const add = (mistake: BodyMistake, variant: string) => {
    if (seen.has(variant)) return;
    seen.add(variant);
    variants.push({ mistake, bytes: utf8.encode(variant) });
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
    // Python's json.dumps(obj, separators=(',', ':')): compact, but non-ASCII escaped (ensure_ascii).
    add('reserialised', asciiEscaped(JSON.stringify(parsed.value)));
    add('pretty-printed-2', JSON.stringify(parsed.value, null, 2));
    add('pretty-printed-4', JSON.stringify(parsed.value, null, 4));
    const python = pythonSeparators(JSON.stringify(parsed.value));
    add('python-json-dumps', asciiEscaped(python));
    add('python-json-dumps', python);
  }
  return variants;
}

/** Compact JSON with Python json.dumps' default separators: ", " and ": " outside strings. */
function pythonSeparators(compact: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < compact.length; i++) {
    const c = compact[i]!;
    out += c;
    if (inString) {
      if (c === '\\') out += compact[++i] ?? '';
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === ',' || c === ':') out += ' ';
  }
  return out;
}

/** Non-ASCII as \uXXXX escapes (UTF-16 units, lowercase hex), as json.dumps' default ensure_ascii writes it. */
function asciiEscaped(json: string): string {
  return json.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * The diagnosis as steps: it yields each HMAC it needs and receives the digest back. Plain mistakes are tried
 * first (one at a time), then combinations: the first hit is the most likely story.
 */
export function* signatureDiagnosisSteps(input: SignatureInput, utf8: Utf8): Generator<HmacRequest, SignatureDiagnosis, Uint8Array> {
  const { secret, body } = input;
  const expected = toHex(yield { algorithm: 'sha1', secret, body });
  let given = input.signature.trim();
  const mistakes: SignatureMistake[] = [];
  const prefix = /^sha(1|256)=/i.exec(given);
  if (prefix) {
    given = given.slice(prefix[0].length);
    mistakes.push('sha1-prefix');
  }

  if (same(expected, 'hex', given)) {
    if (input.computedByReceiver && given !== expected) mistakes.push('uppercase-hex');
    if (mistakes.length === 0) return { matches: true, expected, mistakes: [], explanation: 'signature matches' };
    return { matches: false, expected, mistakes, explanation: explain(mistakes, prefix?.[0]) };
  }

  const secrets: { mistake: 'secret-whitespace' | 'secret-newline' | null; secret: string }[] = [{ mistake: null, secret }];
  if (secret.trim() !== secret && secret.trim() !== '') secrets.push({ mistake: 'secret-whitespace', secret: secret.trim() });
  // The other way round: the signer's copy of the secret kept the newline of the file it was read from.
  else if (secret !== '') secrets.push({ mistake: 'secret-newline', secret: `${secret}\n` });

  const variants = bodyVariants(body, utf8);
  const candidates: { mistakes: SignatureMistake[]; secret: number; variant: number; encoding: Encoding }[] = [];
  secrets.forEach((s, si) => {
    for (const encoding of ENCODINGS) {
      variants.forEach((v, vi) => {
        const these: SignatureMistake[] = [...(v.mistake ? [v.mistake] : []), ...encoding.mistakes, ...(s.mistake ? [s.mistake] : [])];
        if (these.length === 0) return; // the correct computation, already compared
        candidates.push({ mistakes: these, secret: si, variant: vi, encoding });
      });
    }
  });
  candidates.sort((a, b) => a.mistakes.length - b.mistakes.length);
  // hex and base64 share a digest: each (algorithm, secret, body) is computed once.
  const digests = new Map<string, Uint8Array>();
  for (const c of candidates) {
    const key = `${c.encoding.algorithm}/${c.secret}/${c.variant}`;
    let digest = digests.get(key);
    if (!digest) {
      digest = yield { algorithm: c.encoding.algorithm, secret: secrets[c.secret]!.secret, body: variants[c.variant]!.bytes };
      digests.set(key, digest);
    }
    const computed = c.encoding.encoding === 'hex' ? toHex(digest) : toBase64(digest);
    if (same(computed, c.encoding.encoding, given)) {
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

/** The diagnosis with a synchronous HMAC (node:crypto). */
export function diagnoseSignatureWith(hmac: Hmac, utf8: Utf8, input: SignatureInput): SignatureDiagnosis {
  const steps = signatureDiagnosisSteps(input, utf8);
  let step = steps.next();
  while (!step.done) step = steps.next(hmac(step.value));
  return step.value;
}

/** The diagnosis with an asynchronous HMAC (Web Crypto). */
export async function diagnoseSignatureAsync(hmac: AsyncHmac, utf8: Utf8, input: SignatureInput): Promise<SignatureDiagnosis> {
  const steps = signatureDiagnosisSteps(input, utf8);
  let step = steps.next();
  while (!step.done) step = steps.next(await hmac(step.value));
  return step.value;
}

/** A mistake in the words `verify` uses (what the signature matches: why, and what to do). */
export function explainSignatureMistake(m: SignatureMistake): string {
  return EXPLAIN[m];
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
