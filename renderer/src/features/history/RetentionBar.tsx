import { useState } from 'react';
import { Database } from 'lucide-react';
import { RETENTION_LIMITS, type RetentionState } from '../../../../main/contract/retention';
import { eachProblem } from '../../../../main/contract/schemaErrors';
import { api } from '../../api/instance';
import { useRefresh } from '../../api/useRefresh';
import { formatCount, formatRowTime, plural } from '../../lib/format';
import { useToasts } from '../../stores/toasts';
import { Button } from '../../ui/Button';
import { DropPanel } from '../../ui/DropPanel';
import { TextField } from '../../ui/TextField';

/** Database sizes: "812 KiB", "12.4 MiB", "1.20 GiB". */
export function formatSize(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KiB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GiB`;
}

export function describePolicy(r: Pick<RetentionState, 'maxAgeDays' | 'maxMessages'>): string {
  const parts = [r.maxAgeDays !== null ? `the last ${plural(r.maxAgeDays, 'day')}` : null, r.maxMessages !== null ? `the newest ${plural(r.maxMessages, 'message')}` : null].filter(Boolean);
  return parts.length ? `keeps ${parts.join(' and ')}` : 'keeps everything';
}

/** A retention field's bound it is past, counted in its unit ("must be at least 1 day (got 0)"); undefined within bounds. */
export function retentionBound(v: number, { min, max }: { min: number; max: number }, unit: string): string | undefined {
  if (v < min) return `must be at least ${plural(min, unit)} (got ${formatCount(v)})`;
  if (v > max) return `must be at most ${plural(max, unit)} (got ${formatCount(v)})`;
  return undefined;
}

/** How often the footer reads the count again while messages arrive. */
const COUNT_EVERY_MS = 1000;

/** The footer of History: how much is stored, and the retention policy that bounds it. */
export function RetentionBar({ refreshKey }: { refreshKey: number }) {
  const [state, setState] = useState<RetentionState | null>(null);
  // New messages (an import, a replay, SDK calls) and retention change the count: read it again, at most once a second.
  useRefresh(
    String(refreshKey),
    async (current) => {
      const result = await api().call('getRetention', {}, { quiet: true });
      if (current() && result.ok) setState(result.value);
    },
    { afterEventsMs: COUNT_EVERY_MS, events: (e) => e.type === 'messageAccepted' || e.type === 'messagesRemoved' },
  );
  return (
    <section aria-label="Storage" className="flex h-9 shrink-0 items-center gap-3 border-t border-line bg-panel px-3 text-xs text-muted whitespace-nowrap">
      <Database aria-hidden className="size-3.5 text-faint" />
      {state ? (
        <StorageLine state={state} />
      ) : (
        <span>Reading the database size…</span>
      )}
      <div className="ml-auto">
        <DropPanel label="Retention" align="right" up width={340} variant="ghost">
          {(close) => (state ? <RetentionForm state={state} onSaved={(s) => { setState(s); close(); }} /> : null)}
        </DropPanel>
      </div>
    </section>
  );
}

/** The storage line, cut to the footer's width; pointing at it reads the whole line, the same words. */
function StorageLine({ state }: { state: RetentionState }) {
  const checks = state.checkMessages > 0 ? ` (${formatCount(state.checkMessages)} from check runs)` : '';
  const oldest = state.oldestReceivedAt !== null ? ` · oldest ${formatRowTime(state.oldestReceivedAt, Date.now())}` : '';
  const rest = ` · retention ${describePolicy(state)}${state.pruned > 0 ? ` · ${plural(state.pruned, 'message')} removed so far` : ''}`;
  return (
    <span className="min-w-0 truncate" title={`${plural(state.messages, 'message')} stored${checks} · database ${formatSize(state.databaseBytes)}${oldest}${rest}`}>
      <span className="tabular text-fg">{plural(state.messages, 'message')}</span> stored
      {checks && <span title="A check run's own messages: History lists them under Traffic: hookbench check">{checks}</span>} · database <span className="tabular text-fg">{formatSize(state.databaseBytes)}</span>
      {oldest}
      {rest}
    </span>
  );
}

function RetentionForm({ state, onSaved }: { state: RetentionState; onSaved(state: RetentionState): void }) {
  const [days, setDays] = useState(state.maxAgeDays === null ? '' : String(state.maxAgeDays));
  const [messages, setMessages] = useState(state.maxMessages === null ? '' : String(state.maxMessages));
  const [errors, setErrors] = useState<{ maxAgeDays?: string; maxMessages?: string; other?: string }>({});
  const [busy, setBusy] = useState(false);
  const number = (text: string) => (text.trim() === '' ? null : Number(text.replace(/[,\s_]/g, '')));
  const save = async () => {
    const maxAgeDays = number(days);
    const maxMessages = number(messages);
    const local: typeof errors = {};
    // Both fields are judged before anything is sent, so that each says its problem at once.
    if (maxAgeDays !== null) local.maxAgeDays = Number.isInteger(maxAgeDays) ? retentionBound(maxAgeDays, RETENTION_LIMITS.maxAgeDays, 'day') : `"${days}" is not a whole number of days`;
    if (maxMessages !== null) local.maxMessages = Number.isInteger(maxMessages) ? retentionBound(maxMessages, RETENTION_LIMITS.maxMessages, 'message') : `"${messages}" is not a whole number of messages`;
    if (local.maxAgeDays || local.maxMessages) return setErrors(local);
    setBusy(true);
    const result = await api().call('setRetention', { maxAgeDays, maxMessages }, { quiet: true });
    setBusy(false);
    if (!result.ok) {
      const next: typeof errors = {};
      for (const p of eachProblem(result.error)) {
        if (p.field === 'maxAgeDays' || p.field === 'maxMessages') next[p.field] ??= p.message;
        else next.other = next.other ? `${next.other}; ${p.message}` : p.message;
      }
      return setErrors(next);
    }
    useToasts.getState().push({ tone: 'success', title: 'Retention saved', message: `History ${describePolicy(result.value)}. Older settled messages are removed in the background.` });
    onSaved(result.value);
  };
  return (
    <form
      className="flex flex-col gap-3 text-xs"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <p className="text-muted">Older delivered, failed, cancelled and filtered messages are removed while the workbench is quiet; messages still waiting for a delivery are kept. Leave a field empty to keep everything.</p>
      <TextField label="Keep the last (days)" inputMode="numeric" value={days} onChange={setDays} placeholder="e.g. 30" error={errors.maxAgeDays ?? null} help={`${RETENTION_LIMITS.maxAgeDays.min}–${formatCount(RETENTION_LIMITS.maxAgeDays.max)} days`} />
      <TextField label="Keep the newest (messages)" inputMode="numeric" value={messages} onChange={setMessages} placeholder="e.g. 100000" error={errors.maxMessages ?? null} help={`${formatCount(RETENTION_LIMITS.maxMessages.min)}–${formatCount(RETENTION_LIMITS.maxMessages.max)} messages`} />
      {errors.other && (
        <p role="alert" className="text-err">
          {errors.other}
        </p>
      )}
      <div className="flex justify-end">
        <Button type="submit" variant="primary" busy={busy}>
          Save retention
        </Button>
      </div>
    </form>
  );
}
