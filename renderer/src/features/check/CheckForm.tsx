import { useState, type FormEvent } from 'react';
import { Eye, EyeOff, Play, TriangleAlert } from 'lucide-react';
import { urlWithScheme, CHECK_LIMITS } from '../../../../main/contract/check/checkInputs';
import { useCheck } from '../../stores/check';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/TextField';
import { formatCount } from '../../lib/format';

const MASK = '••••';

/** The run's settings (the check store's form, kept across navigation): URL, secret, which checks, capacity. */
export function CheckForm({ onStarted }: { onStarted(id: number): void }) {
  const { form, setForm, start, starting } = useCheck();
  const [secretShown, setSecretShown] = useState(false);
  const masked = form.url.includes(MASK);
  const withScheme = urlWithScheme(form.url);
  const urlError = masked ? `This URL is shown masked (${MASK}): type it in full to check it.` : withScheme ? `No scheme: did you mean ${withScheme}?` : null;
  // A stored run's secret was never kept: run again as it stands, it goes unsigned, and the button says so.
  const unsigned = (form.unsignedRerunOf ?? null) !== null && form.secret === '';
  const capacityError = capacityProblem(form.capacity ?? '', form.expectRate ?? '');
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (urlError || capacityError.capacity || capacityError.expectRate || form.url.trim() === '') return;
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
        <Button type="submit" variant="primary" size="md" busy={starting} disabled={urlError !== null || capacityError.capacity !== null || capacityError.expectRate !== null || form.url.trim() === ''} title={form.url.trim() === '' ? 'Give the URL of your receiver first' : (urlError ?? undefined)} icon={<Play aria-hidden className="size-3.5" />}>
          {unsigned ? 'Run unsigned' : 'Run checks'}
        </Button>
      </div>
    </form>
  );
}

/** What is wrong with the capacity fields, each by its field (null: fine); both empty is no capacity run. */
function capacityProblem(seconds: string, rate: string): { capacity: string | null; expectRate: string | null } {
  const s = seconds.trim();
  const r = rate.trim();
  const max = CHECK_LIMITS.maxCapacitySeconds;
  const capacity = s === '' ? null : /^\d+$/.test(s) && Number(s) >= 1 && Number(s) <= max ? null : `A whole number of seconds from 1 to ${max} (got ${s})`;
  const expectRate = r === '' ? null : s === '' ? 'Give the capacity seconds too: the rate is judged on a capacity run' : /^\d+(\.\d+)?$/.test(r) && Number(r) > 0 && Number(r) <= CHECK_LIMITS.maxExpectRate ? null : `Deliveries per second, more than 0 and at most ${formatCount(CHECK_LIMITS.maxExpectRate)} (got ${r})`;
  return { capacity, expectRate };
}
