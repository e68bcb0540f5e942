import type { RetryPolicy } from '../../../../main/contract/destinations';
import { triesWords } from '../../../../main/contract/message/deliveryWords';
import { formatInUnit, spokenDuration } from '../../lib/duration';
import { formatCount, formatSpan } from '../../lib/format';
import { policyLadder } from '../../lib/retryLadder';
import { TextField } from '../../ui/TextField';
import { DELIVERY_LIMITS, type DeliveryForm } from './destinationForm';
import type { Errors } from './fields';

// The bounds the help states are the command schema's own, so the help and the errors cannot disagree.
const L = DELIVERY_LIMITS;
const TIMEOUT_HELP = `Per attempt, until response headers (${formatInUnit(L.timeoutMs.default, 's')} by default, at most ${formatInUnit(L.timeoutMs.max, 's')}).`;
const ATTEMPTS_HELP = `The first attempt included (with several webhooks, rounds: one attempt to each), ${L.maxAttempts.min} to ${formatCount(L.maxAttempts.max)}; empty: only the window bounds them.`;
const SCHEDULE_HELP = `Delay before retry 1, 2, …; the last one repeats; each at most ${spokenDuration(L.scheduleEntryMs.max)}. E.g. 5s, 30s, 2m, 10m, 30m, 1h, 2h.`;
const JITTER_HELP = `± this share of each delay, at random (${L.jitter.min} to ${L.jitter.max}): 0.2 or 20% is ±20 %.`;
const WINDOW_HELP = `No retry falls due later than this after the first attempt (at most ${spokenDuration(L.windowMs.max)}).`;

/**
 * Timeout and retry policy fields, with the ladder they make (if every attempt failed) for the destination's
 * `webhooks` (how many have a URL: each round sends one attempt to each).
 */
export function RetryFields({ form, onChange, errors, policy, webhooks }: { form: DeliveryForm; onChange(patch: Partial<DeliveryForm>): void; errors: Errors; policy: RetryPolicy | null; webhooks: number }) {
  return (
    <div className="flex flex-col gap-3">
      <div className="grid grid-cols-2 gap-2">
        <TextField label="Timeout" value={form.timeout} onChange={(timeout) => onChange({ timeout })} data-slot="timeoutMs" error={errors['timeoutMs'] ?? null} help={TIMEOUT_HELP} />
        <TextField label="Max attempts" value={form.maxAttempts} onChange={(maxAttempts) => onChange({ maxAttempts })} placeholder="no cap" data-slot="retry.maxAttempts" error={errors['retry.maxAttempts'] ?? null} help={ATTEMPTS_HELP} />
        <TextField className="col-span-2" label="Retry schedule" value={form.schedule} onChange={(schedule) => onChange({ schedule })} data-slot="retry.schedule" error={errors['retry.schedule'] ?? null} help={SCHEDULE_HELP} />
        <TextField label="Retry window" value={form.window} onChange={(window) => onChange({ window })} data-slot="retry.windowMs" error={errors['retry.windowMs'] ?? null} help={WINDOW_HELP} />
        <TextField label="Jitter" value={form.jitter} onChange={(jitter) => onChange({ jitter })} data-slot="retry.jitter" error={errors['retry.jitter'] ?? null} help={JITTER_HELP} />
      </div>
      <Ladder policy={policy} webhooks={webhooks} />
    </div>
  );
}

/**
 * What the ladder says above its steps: how many tries over how long, counted as the detail's card counts
 * them ("8 rounds · 24 attempts" with three webhooks, each round one attempt to each), and how it ends.
 */
export function ladderHeading(policy: RetryPolicy, webhooks: number): string {
  const ladder = policyLadder(policy);
  const rounds = ladder.attempts.length;
  const last = ladder.attempts[rounds - 1]!;
  const end = ladder.end === 'maxAttempts' ? `then it fails: max attempts reached (${policy.maxAttempts})` : ladder.end === 'window' ? `then it fails: retry window exhausted (${formatSpan(policy.windowMs)})` : 'and more (the first 30 are listed)';
  return `If every attempt fails: ${triesWords(rounds, rounds * webhooks, webhooks > 1)} over ${formatSpan(last.atMs)}, ${end}`;
}

function Ladder({ policy, webhooks }: { policy: RetryPolicy | null; webhooks: number }) {
  if (!policy) return <p className="rounded-md bg-panel-2 px-2 py-1.5 text-[11px] text-faint">The retry ladder shows once the retry fields above are valid.</p>;
  const ladder = policyLadder(policy);
  return (
    <section aria-label="Retry ladder" className="rounded-md border border-line bg-panel-2 p-2">
      <h4 className="mb-1.5 text-[11px] font-semibold text-muted">
        {ladderHeading(policy, webhooks)}
      </h4>
      <ol className="flex flex-wrap gap-1">
        {ladder.attempts.map((a) => (
          <li key={a.attemptNumber} className="tabular flex h-5 items-center gap-1 rounded bg-panel px-1.5 font-mono text-[11px]" title={a.spreadMs ? `± ${formatSpan(a.spreadMs)} of jitter` : undefined}>
            <span className="text-faint">#{a.attemptNumber}</span>
            <span className="text-fg">{a.atMs === 0 ? 'at once' : `${a.spreadMs ? '≈' : ''}+${formatSpan(a.atMs)}`}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
