import { useMemo, useState, type FormEvent } from 'react';
import { recordTriesWords } from '../../../../main/contract/message/deliveryWords';
import type { DeletionRequest, MessageDetail } from '../../../../main/contract/messages';
import type { EngineEvent } from '../../../../main/contract/events';
import type { ApiError } from '../../../../main/contract/result';
import { api } from '../../api/instance';
import { useRefresh } from '../../api/useRefresh';
import { formatTimestamp, plural } from '../../lib/format';
import { sourceName, useCatalog } from '../../stores/catalog';
import { useRouter } from '../../stores/router';
import { Button } from '../../ui/Button';
import { StatusBadge } from '../../ui/StatusBadge';
import { TextField } from '../../ui/TextField';
import { useAudiences } from './audiencesStore';

/** A deletion request for a user: the sources that saw them, or the ones picked. */
export function DeletionForm({ onCreated }: { onCreated(id: number): void }) {
  const sources = useCatalog((s) => s.sources);
  const [userId, setUserId] = useState('');
  const [scope, setScope] = useState<'seen' | 'picked'>('seen');
  const [picked, setPicked] = useState<string[]>([]);
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const result = await api().call('createDeletionRequest', { userId, ...(scope === 'picked' ? { sources: picked } : {}) }, { quiet: true });
    setBusy(false);
    if (!result.ok) return setError(result.error);
    await useAudiences.getState().load();
    onCreated(result.value.request.id);
  };
  const sourcesError = error?.field?.startsWith('sources') ? error.message : null;
  const userIdError = error && !sourcesError ? formWords(error) : null;
  return (
    <form aria-label="New deletion request" onSubmit={(e) => void submit(e)} className="flex flex-col gap-3">
      <TextField label="User ID" value={userId} onChange={setUserId} placeholder="user-31" error={userIdError} help="One delete message per affected source goes to every enabled destination connected to it." />
      <fieldset className="flex flex-col gap-1.5 text-xs">
        <legend className="mb-1 text-xs text-muted">Sources to notify</legend>
        <label className="flex items-center gap-2">
          <input type="radio" name="deletion-scope" checked={scope === 'seen'} onChange={() => setScope('seen')} />
          All sources that saw this user
        </label>
        <label className="flex items-center gap-2">
          <input type="radio" name="deletion-scope" checked={scope === 'picked'} onChange={() => setScope('picked')} />
          These sources:
        </label>
        <div className="flex flex-wrap gap-x-4 gap-y-1 pl-6">
          {sources.map((s) => (
            <label key={s.id} className={`flex items-center gap-1.5 font-mono ${scope === 'seen' ? 'text-faint' : ''}`}>
              <input type="checkbox" disabled={scope === 'seen'} title={scope === 'seen' ? 'Every source that saw this user is notified: choose “These sources” to pick them' : undefined} checked={picked.includes(s.id)} onChange={(e) => setPicked(e.target.checked ? [...picked, s.id] : picked.filter((p) => p !== s.id))} />
              {s.name}
            </label>
          ))}
        </div>
        {sourcesError && <p className="text-[11px] text-err">{sourcesError}</p>}
      </fieldset>
      <div>
        <Button type="submit" variant="primary" busy={busy} disabled={scope === 'picked' && picked.length === 0} title={scope === 'picked' && picked.length === 0 ? 'Tick at least one source to notify' : undefined}>
          Create deletion request
        </Button>
      </div>
    </form>
  );
}

/**
 * The server's refusal in this form's words: its "no source has seen" names the API's field and the CLI's
 * flag, where this form has a choice of its own to offer.
 */
function formWords(error: ApiError): string {
  const unseen = /^userId: no source has seen ("[^]*"); name the sources to notify/.exec(error.message);
  return error.code === 'not_found' && unseen ? `No source has seen ${unseen[1]}: choose “These sources” below and tick the ones to notify.` : error.message;
}

/** The message an event is about, if any. */
function messageIdOf(e: EngineEvent): number | null {
  return e.type === 'messageUpdated' || e.type === 'messageAccepted' ? e.message.id : e.type === 'deliveryUpdated' ? e.delivery.messageId : e.type === 'attemptFinished' ? e.attempt.messageId : null;
}

/**
 * One deletion request: per source, its `delete` message, and per destination that message's delivery
 * (status, attempts, reason), updated as the engine reports them.
 */
export function DeletionDetail({ request }: { request: DeletionRequest }) {
  const sources = useCatalog((s) => s.sources);
  const destinations = useCatalog((s) => s.destinations);
  // A disabled destination of the source got no delete, and enabling it later sends none: say so, by name.
  const disabledWithout = (sourceId: string | undefined, d: MessageDetail) =>
    destinations.filter((dest) => !dest.enabled && sourceId !== undefined && dest.sourceIds.includes(sourceId) && !d.deliveries.some((x) => x.destinationId === dest.id)).map((dest) => dest.name);
  const navigate = useRouter((s) => s.navigate);
  // A message the history no longer holds (retention removed it) is `gone`, said as such, not loaded for ever.
  const [details, setDetails] = useState<Record<number, MessageDetail | 'gone'>>({});
  const ids = useMemo(() => new Set(request.messageIds), [request.messageIds]);
  // Deliveries change as the engine works: read the messages again when an event names one of them.
  useRefresh(
    request.messageIds.join(','),
    async (current) => {
      const wanted = request.messageIds;
      const answers = await Promise.all(wanted.map((id) => api().call('getMessage', { id }, { quiet: true })));
      if (!current()) return;
      setDetails((d) => {
        const next = { ...d };
        answers.forEach((a, i) => {
          if (a.ok) next[wanted[i]!] = a.value;
          else if (a.error.code === 'not_found') next[wanted[i]!] = 'gone';
        });
        return next;
      });
    },
    { afterEventsMs: 150, events: (e) => ids.has(messageIdOf(e) ?? -1) },
  );

  return (
    <div className="flex flex-col gap-3">
      <header>
        <h3 className="text-[15px] font-semibold">
          Deletion request #{request.id}: <span className="font-mono">{request.userId}</span>
        </h3>
        <p className="text-xs text-muted">
          {formatTimestamp(request.createdAt)} · {plural(request.sourceIds.length, 'source')} notified, one <code className="font-mono">delete</code> message each: {'{'}type, userId, timestamp{'}'}
        </p>
      </header>
      <ul aria-label="Delete notifications" className="flex flex-col gap-2">
        {request.messageIds.map((id, i) => {
          const d = details[id];
          const source = sourceName(sources, request.sourceIds[i] ?? null) || 'deleted source';
          const skipped = d && d !== 'gone' ? disabledWithout(request.sourceIds[i], d) : [];
          return (
            <li key={id} aria-label={`Source ${source}`} className="rounded-md border border-line">
              <div className="flex items-center gap-2 border-b border-line px-2.5 py-1.5 text-xs">
                <span className="text-muted">Source</span>
                <span className="font-mono font-semibold">{source}</span>
                <a href={`#/live/${id}`} onClick={(e) => (e.preventDefault(), navigate({ view: 'live', messageId: id }))} className="font-mono text-accent hover:underline">
                  message #{id}
                </a>
                <span className="ml-auto">{d && d !== 'gone' && <StatusBadge status={d.message.status} />}</span>
              </div>
              {d === undefined ? (
                <p className="px-2.5 py-1.5 text-xs text-faint">Loading…</p>
              ) : d === 'gone' ? (
                <p className="px-2.5 py-1.5 text-xs text-muted">This message is no longer in the history (retention removed it): the request itself is kept.</p>
              ) : d.deliveries.length === 0 ? (
                <p className="px-2.5 py-1.5 text-xs text-muted">No destination received it{d.message.statusReason ? `: ${d.message.statusReason}` : ''}.</p>
              ) : (
                <table className="w-full text-xs">
                  <caption className="sr-only">Deliveries of message #{id}</caption>
                  <tbody>
                    {d.deliveries.map((delivery) => (
                      <tr key={delivery.id} aria-label={`${delivery.destinationName}: ${delivery.status}`} className="border-t border-line/60 first:border-t-0">
                        <td className="w-2/5 truncate px-2.5 py-1">{delivery.destinationName}</td>
                        <td className="px-2 py-1">
                          <StatusBadge status={delivery.status} />
                        </td>
                        <td className="tabular px-2 py-1 text-muted">{recordTriesWords(delivery, d.attempts.filter((a) => a.deliveryId === delivery.id))}</td>
                        <td className="truncate px-2.5 py-1 text-muted">{delivery.reason ?? ''}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
              {skipped.length > 0 && (
                <p className="border-t border-line/60 px-2.5 py-1.5 text-xs text-muted">
                  No delete for {skipped.join(', ')}: disabled. Enabling {skipped.length === 1 ? 'it' : 'them'} later sends nothing; create the request again then.
                </p>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
