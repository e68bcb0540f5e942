import { Segmented } from '../../ui/Segmented';
import { Select } from '../../ui/Select';
import { TextField } from '../../ui/TextField';
import { describeForm, type FormField, type ScriptForm } from './scriptForm';

/** How an endpoint answers: responses in order, or a seeded failure rate; one delay for every answer. */
export function ScriptFields({ form, onChange, error }: { form: ScriptForm; onChange(patch: Partial<ScriptForm>): void; error: { field: FormField; message: string } | null }) {
  const errorOf = (field: FormField) => (error?.field === field ? error.message : null);
  const summary = describeForm(form);
  return (
    <fieldset className="flex flex-col gap-2.5">
      <legend className="sr-only">Script</legend>
      <div className="flex items-center gap-2">
        <span className="text-xs text-muted">Answers</span>
        <Segmented<ScriptForm['mode']>
          label="Script mode"
          value={form.mode}
          onChange={(mode) => onChange({ mode })}
          options={[
            { value: 'sequence', label: 'In order' },
            { value: 'failureRate', label: 'Failure rate' },
          ]}
        />
      </div>
      {form.mode === 'sequence' ? (
        <div className="grid grid-cols-[minmax(0,1fr)_auto] items-start gap-2">
          <TextField
            label="Responses"
            value={form.responses}
            onChange={(responses) => onChange({ responses })}
            placeholder="500,500,200"
            help="Status codes, or never, reset, close: one per request, in order."
            error={errorOf('responses')}
          />
          <div className="pt-5">
            <Select
              label="After the last"
              labelHidden
              value={form.after}
              onChange={(v) => onChange({ after: v as ScriptForm['after'] })}
              options={[
                { value: 'repeat-last', label: 'then repeat the last' },
                { value: 'cycle', label: 'then start over' },
              ]}
            />
          </div>
        </div>
      ) : (
        <div className="grid grid-cols-2 gap-2">
          <TextField label="Failure rate (%)" value={form.ratePercent} onChange={(ratePercent) => onChange({ ratePercent })} inputMode="decimal" error={errorOf('ratePercent')} />
          <TextField label="Seed" value={form.seed} onChange={(seed) => onChange({ seed })} inputMode="numeric" help="Same seed, same failures." error={errorOf('seed')} />
          <TextField label="Failure answer" value={form.failure} onChange={(failure) => onChange({ failure })} placeholder="500" error={errorOf('failure')} />
          <TextField label="Success answer" value={form.success} onChange={(success) => onChange({ success })} placeholder="200" error={errorOf('success')} />
        </div>
      )}
      <TextField
        label="Delay (ms)"
        value={form.delayMs}
        onChange={(delayMs) => onChange({ delayMs })}
        inputMode="numeric"
        placeholder="0"
        help="Real time before each answer; longer than the destination's timeout (5000 ms by default) makes a timeout."
        error={errorOf('delayMs')}
      />
      {summary && (
        <p className="text-[11px] text-muted">
          Script: <span className="text-fg">{summary}</span>
        </p>
      )}
    </fieldset>
  );
}
