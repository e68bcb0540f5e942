import type { ReactNode } from 'react';
import { api } from '../../api/instance';
import { useDensity, type Density } from '../../stores/density';
import { useTheme, type ThemeChoice } from '../../stores/theme';
import { formatBytes } from '../../lib/format';
import { useAsyncValue } from '../../lib/useAsyncValue';
import { CopyButton } from '../../ui/CopyButton';
import { Segmented } from '../../ui/Segmented';
import { SHORTCUTS } from './shortcuts';

/** Where the workbench listens (URLs to copy), where it keeps data, how it looks, its keys and versions. */
export function SettingsView() {
  const settings = useAsyncValue(async () => {
    const result = await api().call('getSettings', {});
    if (!result.ok) throw new Error(result.error.message);
    return result.value;
  }, []);
  const { choice, setChoice } = useTheme();
  const { density, setDensity } = useDensity();
  const s = settings.state === 'done' ? settings.value : null;
  return (
    <div className="h-full overflow-y-auto">
      <div className="mx-auto flex max-w-3xl flex-col gap-4 p-5">
        <h1 className="text-base font-semibold">Settings</h1>
        {settings.state === 'error' && <p role="alert" className="rounded-md border border-err/40 bg-err-soft px-3 py-2 text-xs">Settings could not be read: {settings.message}</p>}

        <Section title="Addresses" hint="Copy them into an SDK, a webhook URL or another browser. The UI link carries this session's token: share it only with people who may use this workbench.">
          <Row label="This UI (with its token)" value={s?.uiUrl} copy="Copy UI link" />
          <Row label="Typed API" value={s?.url} copy="Copy API URL" />
          <Row label="Ingestion for SDKs" value={s?.ingestUrl} copy="Copy ingestion URL" hint={s?.ingestUrl ? `SDKs post to ${s.ingestUrl}/v1/batch (and /v1/track, /v1/identify, ...) with a source's write key.` : undefined} />
          <Row label="Mock receiver (HTTP)" value={s?.receiverUrl} copy="Copy receiver URL" hint={s?.receiverUrl ? `An endpoint answers at ${s.receiverUrl}/r/<name>; a destination can say receiver:<name>.` : undefined} />
          <Row label="Mock receiver (HTTPS)" value={s?.receiverTlsUrl} copy="Copy HTTPS receiver URL" hint="Self-signed: the engine refuses it (tls_error) unless the destination names a caFile." />
        </Section>

        <Section title="Data" hint="Everything lives in this folder: the database (messages, deliveries, attempts, captures, and your sources, destinations and receiver endpoints), the mock receiver's HTTPS certificate, and server.json with the token. A config file you start with is not kept here: it is applied to the database at start.">
          <Row label="Data directory" value={s?.dataDir} copy="Copy data directory" />
          <Row label="Database file" value={s?.databaseFile} copy="Copy database path" />
          <Row label="Database size" value={s ? `${formatBytes(s.databaseBytes)} (with its write-ahead log)` : undefined} />
        </Section>

        <Section title="Appearance">
          <div className="flex items-center gap-3 px-4 py-2.5">
            <span className="w-48 shrink-0 text-xs text-muted">Theme</span>
            <Segmented<ThemeChoice> label="Theme" value={choice} onChange={setChoice} options={[{ value: 'system', label: 'System' }, { value: 'light', label: 'Light' }, { value: 'dark', label: 'Dark' }]} />
          </div>
          <div className="flex items-center gap-3 border-t border-line/60 px-4 py-2.5">
            <span className="w-48 shrink-0 text-xs text-muted">Density</span>
            <Segmented<Density> label="Density" value={density} onChange={setDensity} options={[{ value: 'comfortable', label: 'Comfortable' }, { value: 'compact', label: 'Compact' }]} />
            <span className="text-[11px] text-faint">Compact fits more rows in Live and the Receiver.</span>
          </div>
        </Section>

        <Section title="Keyboard">
          <table aria-label="Keyboard shortcuts" className="w-full text-xs">
            <tbody>
              {SHORTCUTS.map(([keys, what]) => (
                <tr key={keys} className="border-b border-line/60 last:border-b-0">
                  <th scope="row" className="w-48 px-4 py-1.5 text-left font-normal">
                    {keys.split(' / ').map((k, i) => (
                      <span key={k}>
                        {i > 0 && <span className="text-faint"> or </span>}
                        <kbd className="rounded border border-line bg-panel-2 px-1.5 py-0.5 font-mono text-[11px]">{k}</kbd>
                      </span>
                    ))}
                  </th>
                  <td className="px-4 py-1.5 text-muted">{what}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Section>

        <Section title="About">
          <Row label="Hookbench" value={s?.version} />
          <Row label="Node" value={s?.versions.node} />
          <Row label="Electron" value={s ? (s.versions.electron ?? 'not running in the desktop app') : undefined} />
          <Row label="SQLite" value={s?.versions.sqlite} />
        </Section>
      </div>
    </div>
  );
}

function Section({ title, hint, children }: { title: string; hint?: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="rounded-lg border border-line bg-panel">
      <header className="border-b border-line px-4 py-2.5">
        <h2 className="text-xs font-semibold tracking-wide text-muted uppercase">{title}</h2>
        {hint && <p className="mt-1 text-xs text-muted">{hint}</p>}
      </header>
      <div>{children}</div>
    </section>
  );
}

function Row({ label, value, copy, hint }: { label: string; value: string | null | undefined; copy?: string; hint?: string | undefined }) {
  return (
    <div className="flex min-h-10 items-center gap-3 border-b border-line/60 px-4 py-1.5 last:border-b-0">
      <span className="w-48 shrink-0 text-xs text-muted">{label}</span>
      <div className="min-w-0 flex-1">
        <div aria-label={label} className="truncate font-mono text-xs" title={value ?? undefined}>
          {value === undefined ? <span className="text-faint">…</span> : value === null ? <span className="text-faint">not listening</span> : value}
        </div>
        {hint && <p className="mt-0.5 text-[11px] text-faint">{hint}</p>}
      </div>
      {copy && value ? <CopyButton text={value} label={copy} showLabel={false} /> : null}
    </div>
  );
}
