import { useState, type FormEvent } from 'react';
import { Eye, EyeOff, Play, TriangleAlert } from 'lucide-react';
import { urlWithScheme, CHECK_LIMITS } from '../../../../main/contract/check/checkInputs';
import { useCheck } from '../../stores/check';
import { capacityProblem } from './capacityProblem';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/TextField';

const MASK = '••••';

/** The run's settings (the check store's form, kept across navigation): URL, secret, which checks, capacity. */
export function CheckForm({ onStarted }: { onStarted(id: number): void }) {
  const { form, setForm, start, starting, onlyError } = useCheck();
  const [secretShown, setSecretShown] = useState(false);
  const masked = form.url.includes(MASK);
  const withScheme = urlWithScheme(form.url);
  const urlError = masked ? `This URL is shown masked (${MASK}): type it in full to check it.` : withScheme ? `No scheme: did you mean ${withScheme}?` : null;
  // A stored run's secret was never kept: run again as it stands, it goes unsigned, and the button says so.
  const unsigned = (form.unsignedRerunOf ?? null) !== null && form.secret === '';
  const capacityError = capacityProblem(form.capacity ?? '', form.expectRate ?? '', form.only);
  const fieldError = capacityError.only ?? capacityError.capacity ?? capacityError.expectRate;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (urlError || fieldError || form.url.trim() === '') return;
    const id = await start();
    if (id !== null) onStarted(id);
  };
  return (
    <form aria-label="Check an endpoint" onSubmit={(e) => void submit(e)} className="flex flex-col gap-3 rounded-lg border border-line bg-panel p-3">
      {form.note && (
        <p className={`flex items-start gap-1.5 text-xs ${unsigned ? 'text-warn' : 'text-muted'}`}>
          {unsigned && <TriangleAlert aria-hidden className="mt-px size-3.5 shrink-0" />}
          {form.note}
        </p>
      )}
      <div className="grid gap-3 md:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <TextField label="URL" value={form.url} onChange={(url) => setForm({ url })} placeholder="http://localhost:3000/webhooks" error={urlError} />
        <TextField
          label="Secret"
          type={secretShown ? 'text' : 'password'}
          value={form.secret}
          onChange={(secret) => setForm({ secret })}
          placeholder="none (unsigned)"
          after={
            <Button variant="ghost" aria-label={secretShown ? 'Hide secret' : 'Show secret'} title={secretShown ? 'Hide secret' : 'Show secret'} onClick={() => setSecretShown(!secretShown)} icon={secretShown ? <EyeOff aria-hidden className="size-3.5" /> : <Eye aria-hidden className="size-3.5" />} />
          }
        />
      </div>
      <div className="flex flex-wrap items-end gap-3">
        <TextField
          className="min-w-64 flex-1"
          label="Only these checks"
          value={form.only}
          onChange={(only) => setForm({ only })}
          placeholder="all (or IDs, e.g. shapes.track)"
          error={capacityError.only ?? onlyError}
        />
        <TextField
          className="w-36"
          label="Capacity (seconds)"
          value={form.capacity ?? ''}
          onChange={(capacity) => setForm({ capacity })}
          placeholder={`off (1 to ${CHECK_LIMITS.maxCapacitySeconds})`}
          inputMode="numeric"
          error={capacityError.capacity}
        />
        <TextField
          className="w-36"
          label="Expected rate (/s)"
          value={form.expectRate ?? ''}
          onChange={(expectRate) => setForm({ expectRate })}
          placeholder="none"
          inputMode="decimal"
          error={capacityError.expectRate}
        />
        <Button type="submit" variant="primary" size="md" busy={starting} disabled={urlError !== null || fieldError !== null || form.url.trim() === ''} title={form.url.trim() === '' ? 'Give the URL of your receiver first' : (urlError ?? fieldError ?? undefined)} icon={<Play aria-hidden className="size-3.5" />}>
          {unsigned ? 'Run unsigned' : 'Run checks'}
        </Button>
      </div>
    </form>
  );
}
