import type { RetryPolicy } from '../../../../main/contract/models';
import { formatSpan } from '../../lib/format';
import { policyLadder } from '../../lib/retryLadder';
import { TextField } from '../../ui/TextField';
import type { Errors } from './fields';

export interface DeliveryForm {
  timeout: string;
  schedule: string;
  window: string;
  jitter: string;
  maxAttempts: string;
}

/** Timeout and retry policy fields, with the ladder they make (if every attempt failed). */
export function RetryFields({ form, onChange, errors, policy }: { form: DeliveryForm; onChange(patch: Partial<DeliveryForm>): void; errors: Errors; policy: RetryPolicy | null }) {
  return (
    <div className="flex flex-col gap-3">
      <div className="grid grid-cols-2 gap-2">
        <TextField label="Timeout" value={form.timeout} onChange={(timeout) => onChange({ timeout })} error={errors['timeoutMs'] ?? null} help="Per attempt, until response headers (5s by default, at most 120s)." />
        <TextField label="Max attempts" value={form.maxAttempts} onChange={(maxAttempts) => onChange({ maxAttempts })} placeholder="no cap" error={errors['retry.maxAttempts'] ?? null} help="The first attempt included; empty: only the window bounds them." />
        <TextField className="col-span-2" label="Retry schedule" value={form.schedule} onChange={(schedule) => onChange({ schedule })} error={errors['retry.schedule'] ?? null} help="Delay before retry 1, 2, …; the last one repeats. E.g. 5s, 30s, 2m, 10m, 30m, 1h, 2h." />
        <TextField label="Retry window" value={form.window} onChange={(window) => onChange({ window })} error={errors['retry.windowMs'] ?? null} help="No retry falls due later than this after the first attempt." />
        <TextField label="Jitter" value={form.jitter} onChange={(jitter) => onChange({ jitter })} error={errors['retry.jitter'] ?? null} help="± this share of each delay, at random: 0.2 is ±20 %." />
      </div>
      <Ladder policy={policy} />
    </div>
  );
}

function Ladder({ policy }: { policy: RetryPolicy | null }) {
  if (!policy) return <p className="rounded-md bg-panel-2 px-2 py-1.5 text-[11px] text-faint">The retry ladder shows once the fields above are valid.</p>;
  const ladder = policyLadder(policy);
  const last = ladder.attempts[ladder.attempts.length - 1]!;
  const end = ladder.end === 'maxAttempts' ? `then it fails: max attempts reached (${policy.maxAttempts})` : ladder.end === 'window' ? `then it fails: retry window exhausted (${formatSpan(policy.windowMs)})` : 'and more (the first 30 are listed)';
  return (
    <section aria-label="Retry ladder" className="rounded-md border border-line bg-panel-2 p-2">
      <h4 className="mb-1.5 text-[11px] font-semibold text-muted">
        If every attempt fails: {ladder.attempts.length} attempt{ladder.attempts.length === 1 ? '' : 's'} over {formatSpan(last.atMs)}, {end}
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
