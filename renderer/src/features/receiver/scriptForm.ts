/**
 * The Receiver screen's script form: a response script (main/contract/receiver/receiver.ts) as a few fields and
 * back. The form covers what most tests need (statuses and never/reset/close in order, one delay, a seeded
 * failure rate); a script with more (headers, bodies, Retry-After, per-step delays) is shown as such and
 * replaced only when the user saves the form.
 */
import { describeScript, listItemWords, nextStepWords, responseScriptSchema, STEP_ACTIONS, stepsApart, type ReceiverEndpoint, type ResponseScript, type ResponseScriptInput, type ScriptStep } from '../../../../main/contract/receiver/receiver';
import { plural } from '../../lib/format';

export interface ScriptForm {
  mode: 'sequence' | 'failureRate';
  /** `500,500,200`, `never`, `200`. */
  responses: string;
  after: 'repeat-last' | 'cycle';
  /** Milliseconds before each answer ('' = none). */
  delayMs: string;
  /** Percent of requests that fail. */
  ratePercent: string;
  seed: string;
  success: string;
  failure: string;
}

export type FormField = keyof ScriptForm;

const plain = (step: ScriptStep) => Object.keys(step.headers).length === 0 && step.body === '' && step.retryAfter === null;

function token(step: ScriptStep): string {
  return step.action === 'respond' ? String(step.status) : step.action;
}

/** The form for a script, and what the form cannot show (null when it shows everything). */
export function formOfScript(script: ResponseScript): { form: ScriptForm; beyond: string | null } {
  const steps = script.mode === 'sequence' ? script.steps : [script.success, script.failure];
  const delays = new Set(steps.filter((s) => s.action !== 'never').map((s) => s.delayMs));
  const delay = [...delays][0] ?? 0;
  const beyond = !steps.every(plain) || delays.size > 1 ? `This script does more than the form shows (${describeScript(script)}); saving the form replaces it.` : null;
  const base = { delayMs: delay > 0 ? String(delay) : '', after: 'repeat-last' as const, ratePercent: '30', seed: '1', success: '200', failure: '500', responses: '200' };
  if (script.mode === 'sequence') return { form: { ...base, mode: 'sequence', responses: script.steps.map(token).join(','), after: script.after }, beyond };
  return {
    form: { ...base, mode: 'failureRate', ratePercent: String(Math.round(script.rate * 10_000) / 100), seed: String(script.seed), success: token(script.success), failure: token(script.failure) },
    beyond,
  };
}

export type FormResult = { ok: true; script: ResponseScriptInput } | { ok: false; field: FormField; message: string };

function stepOf(text: string, delayMs: number): { ok: true; step: Record<string, unknown> } | { ok: false; message: string } {
  const t = text.trim().toLowerCase();
  if (/^\d+$/.test(t)) return { ok: true, step: { status: Number(t), ...(delayMs ? { delayMs } : {}) } };
  if ((STEP_ACTIONS as readonly string[]).includes(t) && t !== 'respond') return { ok: true, step: { action: t, ...(delayMs && t !== 'never' ? { delayMs } : {}) } };
  return { ok: false, message: t === '' ? `is empty: ${WANTED}` : `(${JSON.stringify(text.trim())}) is not a response: ${WANTED}` };
}

const WANTED = 'give a status code (200-599), never, reset or close';

/** The form's fields by the labels the user sees. */
const LABELS: Record<FormField, string> = {
  mode: 'Answers',
  responses: 'Responses',
  after: 'After the last',
  delayMs: 'Delay (ms)',
  ratePercent: 'Failure rate (%)',
  seed: 'Seed',
  success: 'Success answer',
  failure: 'Failure answer',
};

/** stepOf's words for a field that holds one answer (no item to number). */
const answerWords = (message: string) => (message.startsWith('is empty') ? `must not be empty: ${WANTED}` : message.replace(/^\(([^)]*)\) /, '$1 '));

const refused = (field: FormField, message: string): FormResult => ({ ok: false, field, message: `${LABELS[field]}: ${message}` });

/**
 * The script the form describes, checked with the contract's own schema. An error names the field by its label,
 * the item of Responses by its number, the limit and the value given; nothing typed is dropped (`200,,500` is
 * refused, as the API and --respond refuse it).
 */
export function scriptOfForm(form: ScriptForm): FormResult {
  const delayText = form.delayMs.trim();
  const delay = delayText === '' ? 0 : Number(delayText);
  if (!/^\d+$/.test(delayText) && delayText !== '') return refused('delayMs', `must be a whole number of milliseconds, 0 or more (got ${JSON.stringify(delayText)})`);
  let input: ResponseScriptInput;
  const parts = form.responses.split(',').map((p) => p.trim());
  if (form.mode === 'sequence') {
    if (parts.every((p) => p === '')) return refused('responses', 'give at least one, e.g. 500,500,200');
    const steps: Record<string, unknown>[] = [];
    for (const [i, p] of parts.entries()) {
      const s = stepOf(p, delay);
      // `200 500` or `500;200`: responses written apart another way than with commas, said as --respond says it.
      if (!s.ok && stepsApart(p)) return refused('responses', listItemWords(i, p, s.message));
      if (!s.ok) return refused('responses', `item ${i + 1} ${s.message}`);
      steps.push(s.step);
    }
    input = { mode: 'sequence', steps, after: form.after } as ResponseScriptInput;
  } else {
    const percent = Number(form.ratePercent);
    if (form.ratePercent.trim() === '' || !Number.isFinite(percent) || percent < 0 || percent > 100) return refused('ratePercent', `must be a percentage from 0 to 100 (got ${JSON.stringify(form.ratePercent.trim())})`);
    const seed = Number(form.seed);
    if (!/^\d+$/.test(form.seed.trim())) return refused('seed', `must be a whole number, 0 or more (got ${JSON.stringify(form.seed.trim())})`);
    const success = stepOf(form.success, delay);
    if (!success.ok) return refused('success', answerWords(success.message));
    const failure = stepOf(form.failure, delay);
    if (!failure.ok) return refused('failure', answerWords(failure.message));
    input = { mode: 'failureRate', rate: percent / 100, seed, success: success.step, failure: failure.step } as ResponseScriptInput;
  }
  const parsed = responseScriptSchema.safeParse(input);
  if (parsed.success) return { ok: true, script: input };
  const issue = parsed.error.issues[0]!;
  const [top, index] = issue.path;
  // The schema's words (limit and value given) under the field that holds the value.
  if (issue.path.includes('delayMs')) return refused('delayMs', issue.message);
  if (form.mode === 'sequence') return refused('responses', top === 'steps' && typeof index === 'number' ? `item ${index + 1} (${JSON.stringify(parts[index])}): ${issue.message}` : issue.message);
  const field: FormField = top === 'seed' ? 'seed' : top === 'success' ? 'success' : top === 'failure' ? 'failure' : 'ratePercent';
  return refused(field, issue.message);
}

/** What the form's script does, in the words the captures use. */
export function describeForm(form: ScriptForm): string | null {
  const result = scriptOfForm(form);
  if (!result.ok) return null;
  const parsed = responseScriptSchema.safeParse(result.script);
  return parsed.success ? describeScript(parsed.data) : null;
}

/**
 * What `answered` counts, said truly: requests that took a step of the script since it was set (a `never` step
 * counts, though it sends nothing), not requests answered; a request refused for its signature takes none.
 */
export function stepsUsedWords(n: number): string {
  return `${plural(n, 'step')} used`;
}

/** The endpoint's place in its script, under its form: how many requests took a step, and which the next gets. */
export function placeWords(endpoint: Pick<ReceiverEndpoint, 'script' | 'answered' | 'refuseInvalidSignatures'>): string {
  const took = endpoint.answered === 0 ? 'No request has taken a step of this script yet' : `${plural(endpoint.answered, 'request')} took a step of this script`;
  const refused = endpoint.refuseInvalidSignatures ? ' (one refused for its signature gets 401 and takes none)' : '';
  return `${took}${refused}; the next gets ${nextStepWords(endpoint.script, endpoint.answered)}.`;
}
