/**
 * The local mock receiver: named endpoints at `<receiverUrl>/r/<name>`, each answering by a
 * response script, and every request captured. Its types (receiverModels.ts) and input schemas
 * (receiverSchemas.ts) gathered in one module, and the words that describe a script; shared with the renderer.
 */
import type { ResponseScript, ScriptStep } from './models.js';

export { type CaptureAttempt, type CapturedBody, type CapturePage, type CaptureRecord, type CaptureStep, DEFAULT_RECEIVER_PORT, DEFAULT_RECEIVER_TLS_PORT, type ListCapturesInput, RECEIVER_LIMITS, type ReceiverCheck, type ReceiverEndpoint, type ResponseScript, type ScriptStep, type SecretMismatch, SIGNATURE_VERDICTS, type SignatureCheck, type SignatureVerdict, STEP_ACTIONS, type StepAction } from './models.js';
export { defaultScript, listItemWords, RECEIVER_NAME, stepsApart, REFUSE_NEEDS_SECRET, type ReceiverInput, receiverInputSchema, receiverNameSchema, type ReceiverPatch, receiverPatchSchema, receiversConfigSchema, respondStep, type ResponseScriptInput, responseScriptSchema, scriptStepSchema } from './schemas.js';

// ---------------------------------------------------------------- words (the CLI, the captures, the UI)

/** `500`, `503, Retry-After 30`, `200 after 6000 ms`, `never answer`, `reset the connection`. */
export function describeStep(step: ScriptStep): string {
  const after = step.delayMs > 0 ? ` after ${step.delayMs} ms` : '';
  switch (step.action) {
    case 'never':
      return 'never answer';
    case 'reset':
      return `reset the connection${after}`;
    case 'close':
      return `close without a response${after}`;
    case 'respond':
      return `${step.status}${step.retryAfter !== null ? `, Retry-After ${step.retryAfter}` : ''}${after}`;
  }
}

/** One line for a whole script: `500, 500, 200 (then the last step repeats)`. */
export function describeScript(script: ResponseScript): string {
  if (script.mode === 'failureRate') {
    const percent = Math.round(script.rate * 1000) / 10;
    return `${percent} % of requests fail (seed ${script.seed}) with ${describeStep(script.failure)}, the rest get ${describeStep(script.success)}`;
  }
  // "never answer" says "always" by itself ("always never answer" would not).
  if (script.steps.length === 1) return script.steps[0]!.action === 'never' ? 'never answer' : `always ${describeStep(script.steps[0]!)}`;
  const then = script.after === 'cycle' ? 'then from the start again' : 'then the last step repeats';
  return `${script.steps.map(describeStep).join(', ')} (${then})`;
}

/** The index of the step of a sequence that answers the request after `answered` earlier ones: past the end, the last again or from the start. */
export function sequenceIndex(script: { steps: readonly unknown[]; after: 'repeat-last' | 'cycle' }, answered: number): number {
  const count = script.steps.length;
  return answered < count ? answered : script.after === 'cycle' ? answered % count : count - 1;
}

/** What the next request gets after `answered` requests took a step of this script, in the captures' words: `step 4 of 5: 204`. */
export function nextStepWords(script: ResponseScript, answered: number): string {
  if (script.mode === 'failureRate') return `request #${answered + 1} of the failure rate (its seed decides whether it fails)`;
  const index = sequenceIndex(script, answered);
  const step = describeStep(script.steps[index]!);
  return script.steps.length === 1 ? step : `step ${index + 1} of ${script.steps.length}: ${step}`;
}

/** `receiver:<name>` (the HTTP listener) or `receiver+tls:<name>` (the HTTPS one), as a webhook URL. */
export function parseReceiverRef(url: string): { name: string; tls: boolean } | null {
  const m = /^receiver(\+tls)?:(.*)$/.exec(url.trim());
  if (!m) return null;
  return { name: m[2]!.trim(), tls: m[1] !== undefined };
}
