/**
 * The Receiver screen's script form: a response script (main/contract/receiver/receiver.ts) as a few fields and
 * back. The form covers what most tests need (statuses and never/reset/close in order, one delay, a seeded
 * failure rate); a script with more (headers, bodies, Retry-After, per-step delays) is shown as such and
 * replaced only when the user saves the form.
 */
import { describeScript, responseScriptSchema, STEP_ACTIONS, type ResponseScript, type ResponseScriptInput, type ScriptStep } from '../../../../main/contract/receiver/receiver';

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
  return { ok: false, message: `"${text.trim()}" is not a response: give a status code (200-599), never, reset or close` };
}

/** The script the form describes, checked with the contract's own schema; an error names the form field. */
export function scriptOfForm(form: ScriptForm): FormResult {
  const delay = form.delayMs.trim() === '' ? 0 : Number(form.delayMs);
  if (!Number.isInteger(delay) || delay < 0) return { ok: false, field: 'delayMs', message: 'Delay: a whole number of milliseconds, 0 or more' };
  let input: ResponseScriptInput;
  if (form.mode === 'sequence') {
    const parts = form.responses.split(',').map((p) => p.trim()).filter((p) => p !== '');
    if (!parts.length) return { ok: false, field: 'responses', message: 'Responses: give at least one, e.g. 500,500,200' };
    const steps: Record<string, unknown>[] = [];
    for (const p of parts) {
      const s = stepOf(p, delay);
      if (!s.ok) return { ok: false, field: 'responses', message: `Responses: ${s.message}` };
      steps.push(s.step);
    }
    input = { mode: 'sequence', steps, after: form.after } as ResponseScriptInput;
  } else {
    const percent = Number(form.ratePercent);
    if (form.ratePercent.trim() === '' || !Number.isFinite(percent) || percent < 0 || percent > 100) return { ok: false, field: 'ratePercent', message: 'Failure rate: a percentage from 0 to 100' };
    const seed = Number(form.seed);
    if (!Number.isInteger(seed) || seed < 0) return { ok: false, field: 'seed', message: 'Seed: a whole number, 0 or more' };
    const success = stepOf(form.success, delay);
    if (!success.ok) return { ok: false, field: 'success', message: `Success: ${success.message}` };
    const failure = stepOf(form.failure, delay);
    if (!failure.ok) return { ok: false, field: 'failure', message: `Failure: ${failure.message}` };
    input = { mode: 'failureRate', rate: percent / 100, seed, success: success.step, failure: failure.step } as ResponseScriptInput;
  }
  const parsed = responseScriptSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field: FormField = form.mode === 'sequence' ? (issue.path.includes('delayMs') ? 'delayMs' : 'responses') : issue.path[0] === 'seed' ? 'seed' : issue.path[0] === 'success' ? 'success' : issue.path[0] === 'failure' ? 'failure' : 'ratePercent';
    return { ok: false, field, message: `${issue.path.join('.') || 'script'}: ${issue.message}` };
  }
  return { ok: true, script: input };
}

/** What the form's script does, in the words the captures use. */
export function describeForm(form: ScriptForm): string | null {
  const result = scriptOfForm(form);
  if (!result.ok) return null;
  const parsed = responseScriptSchema.safeParse(result.script);
  return parsed.success ? describeScript(parsed.data) : null;
}
