/** The mock receiver's model: its endpoints and their response scripts, captures, signature verdicts, limits. */

/** docs/behaviour.md §10: `hookbench serve --receiver-port 4410 --receiver-tls-port 4443`, `hookbench receive --port 4410`. */
export const DEFAULT_RECEIVER_PORT = 4410;
export const DEFAULT_RECEIVER_TLS_PORT = 4443;

export const RECEIVER_LIMITS = {
  nameLength: 64,
  steps: 100,
  headersPerStep: 20,
  /** A scripted response body, UTF-8 bytes. */
  responseBodyBytes: 65_536,
  /** Ten minutes: longer than any timeout worth testing. */
  delayMs: 600_000,
  /** A week, in seconds. */
  retryAfterSeconds: 604_800,
  secretLength: 1024,
  /** Bytes of a request body kept in a capture; the rest is counted (and signed over) but not stored. */
  captureBodyBytes: 1_048_576,
} as const;

/**
 * What a step does: answer (after `delayMs`), never answer (the connection stays open until the client
 * gives up), reset the connection (TCP RST), or close it without a response (FIN).
 */
export const STEP_ACTIONS = ['respond', 'never', 'reset', 'close'] as const;
export type StepAction = (typeof STEP_ACTIONS)[number];

export interface ScriptStep {
  action: StepAction;
  /** HTTP status, for `respond`. */
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Real milliseconds to wait before acting (the engine's timeout is real time too). */
  delayMs: number;
  /** Sent as Retry-After: delay-seconds, or an HTTP date. */
  retryAfter: number | string | null;
}

/**
 * `sequence`: request n (counted from when the script was set) gets steps[n]; past the end the last step
 * repeats (`repeat-last`) or the sequence starts over (`cycle`). A fixed response is a one-step sequence.
 * `failureRate`: each request fails with probability `rate`, decided by `seed` and the request's number,
 * so a run is reproducible.
 */
export type ResponseScript =
  | { mode: 'sequence'; steps: ScriptStep[]; after: 'repeat-last' | 'cycle' }
  | { mode: 'failureRate'; rate: number; seed: number; success: ScriptStep; failure: ScriptStep };

export interface ReceiverEndpoint {
  /** URL-safe: the endpoint answers at `<receiverUrl>/r/<name>`. */
  name: string;
  /** When set, every request's X-Signature is checked (docs/behaviour.md §2). */
  secret: string | null;
  /**
   * Answer a request whose X-Signature is invalid or missing with 401 and a JSON error, before the script
   * (which is then not moved on), as a correct receiver does. Needs a secret.
   */
  refuseInvalidSignatures: boolean;
  script: ResponseScript;
  /**
   * The script's place: requests that took a step of the current script (a `never` step counts, though it sends
   * nothing; a request refused for its signature takes none). The next request is number `answered + 1` of it.
   * Kept in the data dir: a restart of serve goes on where the script was.
   */
  answered: number;
  /** Its URLs while the receiver listens (null when that listener is not running). */
  url: string | null;
  tlsUrl: string | null;
  createdAt: number;
  updatedAt: number;
}

export const SIGNATURE_VERDICTS = ['valid', 'invalid', 'missing'] as const;
export type SignatureVerdict = (typeof SIGNATURE_VERDICTS)[number];

export interface SignatureCheck {
  verdict: SignatureVerdict;
  /** The X-Signature received (null when missing). */
  given: string | null;
  /** The correct X-Signature for the endpoint's secret and the received bytes. */
  expected: string;
  /** When invalid: the mistakes that explain it (signatureDiagnosis names) and one sentence. */
  diagnosis: { mistakes: string[]; explanation: string } | null;
}

/** Which step of the script answered a request, and what it did. */
export interface CaptureStep {
  /**
   * steps[index] of a sequence; 0 (success) or 1 (failure) of a failure rate; null for an unknown endpoint
   * and for a request refused for its signature (the script did not answer it).
   */
  index: number | null;
  /** The request's number under the current script, from 1; null when the script did not answer it. */
  request: number | null;
  /**
   * `step 2 of 3: 500`, `failure (rate 0.3): 503, Retry-After 30`, `unknown endpoint: 404`,
   * `refused, signature invalid: 401`.
   */
  label: string;
  action: StepAction;
  /** The status answered, null when the step sends none. */
  status: number | null;
  delayMs: number;
  /**
   * The client closed the connection this many ms after the request arrived, before the answer went out (its
   * timeout passed during a delay, or a `never` step): what the step says was then never sent. Null when the
   * answer went out, or is still due. Captures stored before this was kept have none.
   */
  clientClosedAfterMs?: number | null;
}

/** Bytes travel as base64 plus a text copy when they are valid UTF-8 (docs/behaviour.md §10). */
export interface CapturedBody {
  base64: string;
  text: string | null;
}

export interface CaptureRecord {
  id: number;
  /** The endpoint that answered, or the name an unknown `/r/<name>` path gave (null for other paths). */
  receiver: string | null;
  /** False when no endpoint matched: answered 404 with the list of endpoints. */
  matched: boolean;
  listener: 'http' | 'https';
  method: string;
  /** The request target as received, query string included. */
  path: string;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** Names as sent, in order, repeats kept. */
  rawHeaders: [string, string][];
  body: CapturedBody;
  /** Bytes received. */
  bodySize: number;
  /** Only the first RECEIVER_LIMITS.captureBodyBytes are kept. */
  bodyTruncated: boolean;
  /** Engine time of arrival, ms since the epoch. */
  arrivedAt: number;
  remoteAddress: string | null;
  step: CaptureStep;
  /** Null when the endpoint has no secret. */
  signature: SignatureCheck | null;
  /** `messageId` of the JSON body, which links the capture to the engine's message. */
  messageId: string | null;
  /**
   * The engine's attempt that sent this request, when the core that sent it runs this receiver: the engine
   * tells the receiver each round it sends to a receiver URL, and the request with those exact body bytes
   * at that URL is that attempt. Null for anything else (curl, another program, `hookbench receive`).
   */
  attempt: CaptureAttempt | null;
  /**
   * `check`: hookbench check sent it directly, not through the engine (a forgery or a probe no destination can
   * send, a redelivery, the burst), to this workbench's own endpoint. Null for anything else.
   */
  sentBy: 'check' | null;
}

export interface CaptureAttempt {
  /** Hookbench's own id of the message (MessageRecord.id). */
  messageRef: number;
  deliveryId: number;
  /** The destination the attempt went to, by name (null once its delivery is gone): a check run's own says it sent a forgery on purpose. */
  destinationName: string | null;
  attemptNumber: number;
  webhookIndex: number;
}

/**
 * The other side of an attempt to the mock receiver (getMessage's `receiverChecks`): what the receiver
 * made of the request the attempt sent, with the capture to open.
 */
export interface ReceiverCheck {
  attemptId: number;
  captureId: number;
  /** The endpoint that answered. */
  receiver: string | null;
  /** The receiver's X-Signature verdict; null when the endpoint has no secret (it checks nothing). */
  verdict: SignatureVerdict | null;
  /** Why it is invalid or missing, in one sentence; null when valid or unchecked. */
  explanation: string | null;
  /** The signature diagnosis' mistakes (signatureDiagnosis names), empty when none. */
  mistakes: string[];
  /** Set when the two sides use different secrets (or the destination none): what differs, and the fix. */
  secrets: SecretMismatch | null;
}

/**
 * The destination and the receiver endpoint sign and check with different secrets. Fingerprints are the
 * first 8 hex digits of SHA-256 of a secret: enough to tell two apart, nothing of the secret itself.
 */
export interface SecretMismatch {
  destinationId: string;
  destinationName: string;
  receiver: string;
  /** The fingerprint of the secret the attempt was signed with; null when unsigned or changed since. */
  destinationFingerprint: string | null;
  /** The fingerprint of the secret the receiver checked with; null when it changed since. */
  receiverFingerprint: string | null;
  /** The two current secrets still differ: useOneSecret would make them one. */
  fixable: boolean;
}

/**
 * A page of captures. The receiver keeps its newest captures only: `limit` is how many at most (10,000 by
 * default), `limitBytes` how many bytes of their bodies at most (64 MiB by default), `pruned` how many older
 * ones were removed to keep within them since the data dir began (clearCaptures does not count).
 */
export interface CapturePage {
  items: CaptureRecord[];
  nextCursor: string | null;
  limit: number;
  limitBytes: number;
  pruned: number;
}

export interface ListCapturesInput {
  receiver?: string;
  messageId?: string;
  cursor?: string | null;
  limit?: number;
}
