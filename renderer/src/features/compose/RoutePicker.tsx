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
        <legend className="mb-1 text-xs font-medium">Send to</legend>
        {destinations.length === 0 ? (
          <p className="text-[11px] text-muted">No destination yet. Create one (Destinations, or a config file) to see deliveries.</p>
        ) : (
          <ul className="flex flex-col gap-1">
            {destinations.map((d) => {
              const id = `${baseId}-${d.id}`;
              return (
                <li key={d.id} className="flex items-center gap-2 text-xs">
                  <input id={id} type="checkbox" checked={chosen.includes(d.id)} onChange={() => toggleDestination(d.id)} className="accent-[var(--accent)]" />
                  <label htmlFor={id} className="min-w-0 truncate">
                    {d.name}
                  </label>
                  {!d.enabled && <span className="rounded bg-neutral-soft px-1 text-[10px] text-neutral">disabled</span>}
                  <span className="ml-auto truncate font-mono text-[11px] text-faint">{d.webhooks[0]?.url ?? 'no webhook'}</span>
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
