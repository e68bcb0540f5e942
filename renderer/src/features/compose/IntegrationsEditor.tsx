import { useCompose } from '../../stores/compose';
import { useCatalog } from '../../stores/catalog';
import { Segmented } from '../../ui/Segmented';

type Setting = 'unset' | 'on' | 'off';

/** `integrations`: All, Webhooks, or a destination by its name (keys are case sensitive). */
export function IntegrationsEditor() {
  const { call, setIntegrations } = useCompose();
  const destinations = useCatalog((s) => s.destinations);
  const current = isBooleanMap(call['integrations']) ? call['integrations'] : {};
  const keys = ['All', 'Webhooks', ...destinations.map((d) => d.name)];
  const set = (key: string, setting: Setting) => {
    const next = { ...current };
    if (setting === 'unset') delete next[key];
    else next[key] = setting === 'on';
    setIntegrations(next);
  };
  return (
    <fieldset className="flex flex-col gap-1.5">
      <legend className="sr-only">Integrations</legend>
      <p className="mb-1 text-[11px] text-faint">Switch destinations off or on for this call. A destination’s own name wins over “Webhooks”, which wins over “All”.</p>
      {keys.map((key) => (
        <div key={key} className="flex max-w-md items-center justify-between gap-2">
          <span className="truncate font-mono text-xs text-muted">{key}</span>
          <Segmented<Setting>
            label={`Integration ${key}`}
            value={key in current ? (current[key] ? 'on' : 'off') : 'unset'}
            onChange={(v) => set(key, v)}
            options={[
              { value: 'unset', label: 'default' },
              { value: 'on', label: 'on' },
              { value: 'off', label: 'off' },
            ]}
          />
        </div>
      ))}
    </fieldset>
  );
}

function isBooleanMap(value: unknown): value is Record<string, boolean> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((v) => typeof v === 'boolean');
}
