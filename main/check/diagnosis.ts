/**
 * Why a receiver refuses valid signatures. When the run's first valid, signed request is refused with a 4xx
 * (or `signature.raw-bytes` is, while other valid requests get in), the same call is sent again, the same
 * bytes, with X-Signature computed each mistaken way `hookbench verify` knows (SignatureMistake): over
 * Python's json.dumps form, pretty-printed, with a newline added, HMAC-SHA256, base64, a `sha1=` prefix, the
 * secret trimmed, over a re-serialised body. The one the receiver accepts names its mistake; when it accepts
 * none, the diagnosis says so and gives the secret's fingerprint to compare.
 *
 * Probes go directly through the forwarder's code (never the engine: no destination can send them) and are
 * kept as evidence of the check that set them off, each labelled `probe: …`.
 */
import { createHmac } from 'node:crypto';
import { PROBE_PREFIX, SEE_DIAGNOSIS, type CheckDiagnosis, type CheckExchange } from '../contract/check/check.js';
import { bodyVariants, explainSignatureMistake, type SignatureMistake, type Utf8 } from '../contract/receiver/signatureDiagnosis.js';
import { secretFingerprint } from '../domain/secrets.js';
import { responseText } from './responseText.js';
import { exchange, prepareSigned, sentBytes, signedValidly, type CheckContext, type Judgement } from './runner.js';
import type { CheckSender } from './sender.js';

/** The check whose body does not survive JSON.parse + JSON.stringify (battery.ts). */
export const RAW_BYTES_ID = 'signature.raw-bytes';
/** The check that stands for the signature area when no secret was given (battery.ts). */
const UNVERIFIED_ID = 'signature.unverified';

const utf8: Utf8 = {
  encode: (text) => Buffer.from(text, 'utf8'),
  decode: (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'),
};

interface Probe {
  mistake: SignatureMistake;
  /** What the probe did, after `probe: ` (evidence label and the diagnosis' title). */
  what: string;
  /** How the receiver computes the signature, when this probe is the one it accepts. */
  receiverDoes: string;
  bytes: Uint8Array;
  signature: string;
}

const hmac = (algorithm: 'sha1' | 'sha256', secret: string, bytes: Uint8Array) => createHmac(algorithm, secret).update(bytes).digest();

/** A 4xx that ends a delivery: a refusal (429 and 408 ask to come back later, they refuse nothing). */
export function refused(ex: CheckExchange): boolean {
  const s = ex.statusCode;
  return s !== null && s >= 400 && s < 500 && s !== 429 && s !== 408;
}

const accepted = (ex: CheckExchange): boolean => ex.statusCode !== null && ex.statusCode >= 200 && ex.statusCode < 300;

/**
 * The probes for a refused body, most likely first. `reserialisable` is a body that does not survive
 * JSON.parse + JSON.stringify (the only kind a re-serialising receiver refuses): the `reserialised` probe
 * sends it, signed over its re-serialised form.
 */
function probesFor(secret: string, bytes: Uint8Array, reserialisable: Uint8Array): Probe[] {
  const probes: Probe[] = [];
  const signed = (mistake: SignatureMistake, what: string, receiverDoes: string, over: Uint8Array, body: Uint8Array = bytes) =>
    probes.push({ mistake, what, receiverDoes, bytes: body, signature: hmac('sha1', secret, over).toString('hex') });
  const own = bodyVariants(bytes, utf8);
  const reserialised = own.find((v) => v.mistake === 'reserialised');
  const nonAscii = (b: Uint8Array) => b.some((byte) => byte >= 0x80);
  // A body that does not survive re-serialisation is the one a re-serialising receiver refuses: try that story first.
  if (reserialised) signed('reserialised', 'signed over JSON.stringify(JSON.parse(body))', 'verifies X-Signature over the body parsed and re-serialised (JSON.stringify(JSON.parse(body))), not the bytes received', reserialised.bytes);
  for (const v of own) {
    if (v.mistake === 'python-json-dumps') {
      const kept = nonAscii(v.bytes);
      signed('python-json-dumps', `signed over Python json.dumps form${kept ? ' (ensure_ascii=False)' : ''}`, `verifies X-Signature over Python's json.dumps(json.loads(body))${kept ? ' (ensure_ascii=False)' : ''}, not the bytes received`, v.bytes);
    }
  }
  for (const v of own) {
    if (v.mistake === 'pretty-printed-2' || v.mistake === 'pretty-printed-4') {
      const n = v.mistake === 'pretty-printed-2' ? 2 : 4;
      signed(v.mistake, `signed over the body pretty-printed with ${n} spaces`, `verifies X-Signature over the body pretty-printed with ${n} spaces, not the bytes received`, v.bytes);
    }
  }
  for (const v of own) {
    if (v.mistake === 'trailing-newline-added') {
      const crlf = v.bytes.at(-2) === 0x0d;
      signed('trailing-newline-added', `signed over the body with a trailing newline added${crlf ? ' (CRLF)' : ''}`, `verifies X-Signature over the body with a ${crlf ? 'CRLF' : 'newline'} added at the end`, v.bytes);
    }
  }
  const digest = hmac('sha1', secret, bytes);
  probes.push({ mistake: 'sha256', what: 'HMAC-SHA256 (hex)', receiverDoes: 'computes HMAC-SHA256, not HMAC-SHA1', bytes, signature: hmac('sha256', secret, bytes).toString('hex') });
  probes.push({ mistake: 'base64', what: 'HMAC-SHA1 as base64', receiverDoes: 'compares the digest as base64, not lowercase hex', bytes, signature: digest.toString('base64') });
  probes.push({ mistake: 'sha1-prefix', what: 'a "sha1=" prefix', receiverDoes: 'expects X-Signature with a "sha1=" prefix', bytes, signature: `sha1=${digest.toString('hex')}` });
  probes.push({ mistake: 'uppercase-hex', what: 'HMAC-SHA1 as upper-case hex', receiverDoes: 'compares X-Signature with an upper-case hex digest, case by case', bytes, signature: digest.toString('hex').toUpperCase() });
  probes.push({
    mistake: 'secret-newline',
    what: 'signed with the secret plus a trailing newline',
    receiverDoes: 'verifies with its secret plus a trailing newline (read from a file or .env with the newline kept)',
    bytes,
    signature: hmac('sha1', `${secret}\n`, bytes).toString('hex'),
  });
  if (secret.trim() !== secret && secret.trim() !== '') {
    probes.push({
      mistake: 'secret-whitespace',
      what: 'signed with the secret trimmed of its surrounding whitespace',
      receiverDoes: 'verifies with the secret trimmed of its surrounding whitespace',
      bytes,
      signature: hmac('sha1', secret.trim(), bytes).toString('hex'),
    });
  }
  if (!reserialised) {
    const other = bodyVariants(reserialisable, utf8).find((v) => v.mistake === 'reserialised');
    if (other) signed('reserialised', 'signed over JSON.stringify(JSON.parse(body)) of a body with \\u003c and \\/ escapes', 'verifies X-Signature over the body parsed and re-serialised (JSON.stringify(JSON.parse(body))), not the bytes received', other.bytes, reserialisable);
  }
  return probes;
}

const sentence = (text: string): string => `${text.charAt(0).toUpperCase()}${text.slice(1)}${/[.!?]$/.test(text) ? '' : '.'}`;

/** The fix of a named mistake, in verify's words where they fit the receiver's side. */
function fixOf(mistake: SignatureMistake): string {
  const verify =
    'Compute HMAC-SHA1 of the raw request body bytes (before any JSON parsing) with the shared secret and compare it with X-Signature (lowercase hex; compare case-insensitively) in constant time.';
  switch (mistake) {
    case 'trailing-newline-added':
      return `The signature it accepts matches the body with a trailing newline added: the receiver hashes bytes the destination never sent (a line-based read, or a newline appended). ${verify}`;
    case 'sha1-prefix':
      return `The signature it accepts has a "sha1=" prefix: X-Signature is the bare hex digest, with no prefix; compare it with the hex digest alone. ${verify}`;
    case 'secret-whitespace':
      return `${sentence(`the signature it accepts ${explainSignatureMistake(mistake)}`)} Use the very same secret on both sides, whitespace included, or remove the whitespace from both.`;
    case 'secret-newline':
      return "The signature it accepts is made with the secret plus a newline: the receiver's copy of the secret ends with one (read from a file or .env). Trim it where the receiver reads it, so that both sides use the very same bytes.";
    default:
      return `${sentence(`the signature it accepts ${explainSignatureMistake(mistake)}`)} ${verify}`;
  }
}

const SIGNATURE_REFUSALS = new Set([401, 403]);

function responseSnippet(ex: CheckExchange): string {
  const text = responseText(ex, 120);
  return text ? ` (it answered: ${text})` : '';
}

function unknown(trigger: CheckExchange, secret: string, rawBytesOnly: boolean, probes: number, silent: CheckExchange | null): CheckDiagnosis {
  const status = trigger.statusCode!;
  const fingerprint = `this run signed with the secret whose fingerprint (the first 8 hex digits of its SHA-256) is ${secretFingerprint(secret)}; printf '%s' "$WEBHOOK_SECRET" | sha256sum | cut -c1-8 prints the receiver's`;
  // What to do first; what was tried last (the report shows the probes themselves too).
  const none = silent
    ? `The probes stopped after ${probes} when one got no answer (${silent.error ?? silent.outcome}); none before it was accepted.`
    : `None of the ${probes} mistaken signatures (Python json.dumps, pretty-printed, a trailing newline, HMAC-SHA256, base64, a "sha1=" prefix, upper-case hex, the secret with a newline added, a re-serialised body${secret.trim() !== secret ? ', the secret trimmed' : ''}) was accepted.`;
  if (rawBytesOnly) {
    return {
      mistake: 'unknown',
      title: `The receiver rejects a valid signature over bytes that JSON.parse and JSON.stringify would change (HTTP ${status}), though it accepts other valid requests; no known mistake explains it`,
      fix: `The secret is right (other valid requests get in), so the receiver hashes other bytes than it received: verify X-Signature over the raw request body bytes, before any JSON parsing. ${none}`,
    };
  }
  if (SIGNATURE_REFUSALS.has(status)) {
    return {
      mistake: 'unknown',
      title: `The receiver rejects valid signatures (HTTP ${status}), and no known mistake explains it`,
      fix: `Check that the receiver verifies with the same shared secret: ${fingerprint}. If it wants other credentials (a token, an Authorization header), send them as a header of the destination. ${none}`,
    };
  }
  return {
    mistake: 'unknown',
    title: `The receiver refuses valid, signed requests with HTTP ${status}, and accepts none of the mistaken signatures either`,
    fix: `The refusal may not be about the signature${responseSnippet(trigger)}: check the URL and what else the receiver requires (the other checks may say). If it is the signature, check the shared secret: ${fingerprint}. ${none}`,
  };
}

/** One run's diagnosis: set off at most once by a refused valid request, then read by every later check. */
export class Diagnoser {
  diagnosis: CheckDiagnosis | null = null;
  /** The run's valid requests are refused for their signature: checks failing only that way point at the diagnosis. */
  private refusesValidSignatures = false;
  private firstValidSeen = false;
  private probed = false;
  /** Without a secret: the status with which the receiver refused the run's first, unsigned request (null: it did not). */
  private refusesUnsigned: number | null = null;
  /** The check that set off the probes when only signature.raw-bytes was refused (its own detail stands, pointing here). */
  private rawBytesTrigger: string | null = null;

  constructor(
    private readonly ctx: CheckContext,
    private readonly sender: CheckSender,
    /** A body that does not survive JSON.parse + JSON.stringify, for the `reserialised` probe. */
    private readonly reserialisable: () => Uint8Array,
  ) {}

  /**
   * After a check ran: probes the receiver when this check holds the run's first valid request and it was
   * refused, or when signature.raw-bytes was refused while other valid requests got in. Answers the probes'
   * exchanges (evidence for this check); empty when nothing was probed.
   */
  async consider(checkId: string, exchanges: readonly CheckExchange[]): Promise<CheckExchange[]> {
    const secret = this.ctx.secret;
    if (secret === null) {
      this.considerUnsigned(exchanges);
      return [];
    }
    if (this.probed) return [];
    const valid = exchanges.filter(signedValidly);
    let trigger: CheckExchange | undefined;
    let rawBytesOnly = false;
    if (!this.firstValidSeen && valid.length > 0) {
      this.firstValidSeen = true;
      if (refused(valid[0]!)) trigger = valid[0];
    } else if (checkId === RAW_BYTES_ID && valid.length > 0 && refused(valid[0]!)) {
      trigger = valid[0];
      rawBytesOnly = true;
    }
    // 415 refuses the Content-Type, never the signature: content-type.no-charset names that, and no probe would.
    if (trigger?.statusCode === 415) return [];
    if (!trigger) return [];
    this.probed = true;
    if (rawBytesOnly) this.rawBytesTrigger = checkId;
    const probes = probesFor(secret, sentBytes(trigger), this.reserialisable());
    const sent: CheckExchange[] = [];
    let found: Probe | null = null;
    for (const probe of probes) {
      const ex = await exchange(this.sender, prepareSigned(`${PROBE_PREFIX}${probe.what}`, probe.bytes, probe.signature, this.ctx), this.ctx);
      sent.push(ex);
      if (accepted(ex)) {
        found = probe;
        break;
      }
      // A receiver that stops answering tells nothing more: the diagnosis stays with what it has.
      if (ex.statusCode === null) break;
    }
    if (found) {
      this.diagnosis = {
        mistake: found.mistake,
        // Beside valid requests that get in, it is some signatures it rejects: those over bytes its parser would write otherwise.
        title: `The receiver rejects ${rawBytesOnly ? 'some ' : ''}valid signatures: it ${found.receiverDoes}`,
        fix: fixOf(found.mistake),
      };
      this.refusesValidSignatures = !rawBytesOnly;
    } else {
      const silent = sent.at(-1)?.statusCode === null ? sent.at(-1)! : null;
      this.diagnosis = unknown(trigger, secret, rawBytesOnly, sent.length, silent);
      this.refusesValidSignatures = !rawBytesOnly && SIGNATURE_REFUSALS.has(trigger.statusCode!);
    }
    return sent;
  }

  /**
   * A check that failed only because valid signatures are refused (every exchange that went wrong is a valid,
   * signed request refused with a 4xx) says so instead of its own advice, which would answer another problem.
   */
  explain(checkId: string, exchanges: readonly CheckExchange[], judgement: Judgement): Judgement {
    if (checkId === this.rawBytesTrigger && judgement.verdict !== 'pass') return { ...judgement, detail: `${judgement.detail}; the diagnosis says why` };
    if (this.refusesUnsigned !== null) return this.explainUnsigned(checkId, exchanges, judgement, this.refusesUnsigned);
    if (!this.refusesValidSignatures || judgement.verdict === 'pass') return judgement;
    const wrong = exchanges.filter((ex) => !accepted(ex));
    if (wrong.length === 0 || !wrong.every((ex) => signedValidly(ex) && refused(ex))) return judgement;
    const statuses = [...new Set(wrong.map((ex) => ex.statusCode))].join(', ');
    return { verdict: judgement.verdict, detail: `refused (HTTP ${statuses}): the receiver rejects valid signatures, ${SEE_DIAGNOSIS}`, fix: null };
  }

  /**
   * Without a secret every request goes unsigned: a receiver that verifies signatures refuses them all, which
   * says nothing about the call each check sends. The run's first request refused with 401 or 403 says so.
   */
  private considerUnsigned(exchanges: readonly CheckExchange[]): void {
    if (this.firstValidSeen || exchanges.length === 0) return;
    this.firstValidSeen = true;
    const first = exchanges[0]!;
    if (first.signature?.sent || !refused(first) || !SIGNATURE_REFUSALS.has(first.statusCode!)) return;
    this.refusesUnsigned = first.statusCode!;
    this.diagnosis = {
      mistake: 'no-secret',
      title: `The receiver refuses unsigned requests (HTTP ${first.statusCode}): it verifies X-Signature, and this run had no shared secret to sign with`,
      fix: `Run the check again with the destination's shared secret (the one the receiver verifies with; --secret in the CLI): every request is then signed as the destination signs it, and the forged-request checks run too.`,
    };
  }

  private explainUnsigned(checkId: string, exchanges: readonly CheckExchange[], judgement: Judgement, status: number): Judgement {
    if (checkId === UNVERIFIED_ID) {
      return {
        verdict: judgement.verdict,
        detail: `no shared secret was given, so the run's requests went unsigned and the forged-request checks did not run; the receiver refused them (HTTP ${status}), so it seems to verify signatures: ${SEE_DIAGNOSIS}`,
        fix: null,
      };
    }
    if (judgement.verdict === 'pass') return judgement;
    const wrong = exchanges.filter((ex) => !accepted(ex));
    if (wrong.length === 0 || !wrong.every((ex) => !ex.signature?.sent && refused(ex) && SIGNATURE_REFUSALS.has(ex.statusCode!))) return judgement;
    const statuses = [...new Set(wrong.map((ex) => ex.statusCode))].join(', ');
    return { verdict: judgement.verdict, detail: `refused (HTTP ${statuses}): the receiver refuses unsigned requests and this run had no shared secret, ${SEE_DIAGNOSIS}`, fix: null };
  }
}
