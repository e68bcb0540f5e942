import { useId } from 'react';
import { useCatalog } from '../../stores/catalog';
import { useCompose } from '../../stores/compose';
import { Select } from '../../ui/Select';

/** Where the call goes: through a source's connected destinations, or straight to the ones ticked. */
export function RoutePicker() {
  const { sources, destinations } = useCatalog();
  const { source, setSource, destinations: chosen, toggleDestination } = useCompose();
  const baseId = useId();
  return (
    <div className="flex flex-col gap-3">
      <Select
        label="Source"
        value={source}
        onChange={setSource}
        options={[{ value: '', label: 'none (the composer)' }, ...sources.map((s) => ({ value: s.name, label: `${s.name} (${s.kind})` }))]}
      />
      <fieldset>
        <legend className="mb-1.5 text-xs font-medium">Send to</legend>
        {destinations.length === 0 ? (
          <p className="text-[11px] text-muted">No destination yet. Create one (Destinations, or a config file) to see deliveries.</p>
        ) : (
          <ul className="flex flex-col gap-1">
            {destinations.map((d) => {
              const id = `${baseId}-${d.id}`;
              return (
                <li key={d.id} className="flex min-w-0 items-center gap-2 text-xs">
                  <input id={id} type="checkbox" checked={chosen.includes(d.id)} onChange={() => toggleDestination(d.id)} className="shrink-0 accent-[var(--accent)]" />
                  <label htmlFor={id} className="max-w-[55%] shrink-0 truncate">
                    {d.name}
                  </label>
                  {!d.enabled && <span className="shrink-0 rounded bg-neutral-soft px-1 text-[10px] text-neutral">disabled</span>}
                  <span className="min-w-0 flex-1 truncate text-right font-mono text-[11px] text-faint" title={d.webhooks.map((w) => w.url).join(', ')}>
                    {d.webhooks[0]?.url ?? 'no webhook'}
                    {d.webhooks.length > 1 ? ` +${d.webhooks.length - 1}` : ''}
                  </span>
                </li>
              );
            })}
          </ul>
        )}
        <p className="mt-1.5 text-[11px] text-faint">
          {chosen.length
            ? 'Sent to the ticked destinations only (integrations and event filters still apply).'
            : source
              ? `None ticked: every enabled destination connected to “${source}”.`
              : 'None ticked: every enabled destination.'}
        </p>
      </fieldset>
    </div>
  );
}
