import { useState } from 'react';
import { ChevronDown, ChevronRight } from 'lucide-react';
import { PROBE_PREFIX, type CheckExchange } from '../../../../main/contract/check/check';
import { formatBytes, formatCount } from '../../lib/format';
import { CodeView } from '../../ui/CodeView';

/** Evidence lists can be long (a burst): the rest is one click away. */
const FIRST_SHOWN = 6;

/** The requests of a check and what came back, one line each (status, time, attempt), each openable to its headers and bodies. */
export function CheckEvidence({ evidence, heading = true }: { evidence: CheckExchange[]; heading?: boolean }) {
  const [all, setAll] = useState(false);
  if (evidence.length === 0) return <p className="text-xs text-faint">No request was sent for this check.</p>;
  const shown = all ? evidence : evidence.slice(0, FIRST_SHOWN);
  return (
    <div className="flex flex-col gap-1.5">
      {heading && <h4 className="text-xs font-semibold">{evidence.length === 1 ? 'Request and response' : `Requests and responses (${evidence.length})`}</h4>}
      <ol className="flex flex-col gap-1.5">
        {shown.map((x, i) => (
          <Exchange key={i} exchange={x} />
        ))}
      </ol>
      {!all && evidence.length > FIRST_SHOWN && (
        <button type="button" className="self-start text-xs text-accent hover:underline" onClick={() => setAll(true)}>
          Show {evidence.length - FIRST_SHOWN} more
        </button>
      )}
    </div>
  );
}

/** Real milliseconds, which can be fractional: whole ones, and "<1 ms" below one. */
const formatMs = (ms: number) => (ms < 1 ? '<1 ms' : `${formatCount(Math.round(ms))} ms`);

function Exchange({ exchange: x }: { exchange: CheckExchange }) {
  const [open, setOpen] = useState(false);
  const status = x.statusCode !== null ? `HTTP ${x.statusCode}` : (x.error ?? 'no response');
  return (
    <li aria-label={x.label} className="rounded-md border border-line bg-panel">
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1 px-2 py-1.5 text-xs">
        <button type="button" aria-expanded={open} onClick={() => setOpen(!open)} className="flex min-w-0 items-center gap-1.5 text-left hover:text-fg">
          {open ? <ChevronDown aria-hidden className="size-3.5 shrink-0 text-faint" /> : <ChevronRight aria-hidden className="size-3.5 shrink-0 text-faint" />}
          <span className="font-medium">{x.label}</span>
        </button>
        <span className="min-w-0 truncate font-mono text-[11px] text-muted" title={x.request.url}>
          {x.request.method} {x.request.url}
        </span>
        <span className="font-mono text-[11px]">→ {status}</span>
        <span className="tabular text-[11px] text-faint">{formatMs(x.durationMs)}</span>
        {/* What happened on the wire, in neutral: a green "success" beside a forgery the receiver let in would read as a pass. */}
        <span title="The HTTP exchange's outcome; the check's verdict is above" className="rounded border border-line px-1.5 font-mono text-[11px] text-muted">
          {x.outcome}
        </span>
        {x.attempt && (
          <a href={`#/live/${x.attempt.messageId}/attempt/${x.attempt.attemptId}`} className="ml-auto text-[11px] text-accent hover:underline">
            Attempt #{x.attempt.attemptId} of message #{x.attempt.messageId}
          </a>
        )}
      </div>
      {x.signature && (
        <p className="border-t border-line px-2 py-1.5 text-[11px] text-muted">
          X-Signature <code className="font-mono">{x.signature.sent ?? 'not sent'}</code>
          {/* A forgery or a diagnosis probe is wrong on purpose: verify's reading of it ("check the shared secret") would only mislead. */}
          {x.label.startsWith('forged') ? ' (forged on purpose)' : x.label.startsWith(PROBE_PREFIX) ? ' (a diagnosis probe, wrong on purpose)' : `: ${x.signature.explanation}`}
        </p>
      )}
      {open && (
        <div className="grid gap-2 border-t border-line p-2 xl:grid-cols-2">
          <Side title={`Request · ${formatBytes(x.request.bodyBytes)}${x.request.bodyTruncated ? ' (body cut)' : ''}`} headers={x.request.headers} body={x.request.body} label={`${x.label}: request body`} />
          {x.response ? (
            <Side title={`Response · ${status}${x.response.bodyTruncated ? ' (body cut)' : ''}`} headers={x.response.headers} body={x.response.body} label={`${x.label}: response body`} />
          ) : (
            <p className="text-xs text-faint">No response: {x.error ?? 'nothing came back'}.</p>
          )}
        </div>
      )}
    </li>
  );
}

function Side({ title, headers, body, label }: { title: string; headers: Record<string, string>; body: string; label: string }) {
  const isJson = (() => {
    try {
      JSON.parse(body);
      return true;
    } catch {
      return false;
    }
  })();
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <h5 className="text-[11px] font-semibold tracking-wide text-muted uppercase">{title}</h5>
      <dl className="grid grid-cols-[minmax(0,auto)_minmax(0,1fr)] gap-x-2 font-mono text-[11px]">
        {Object.entries(headers).map(([k, v]) => (
          <div key={k} className="contents">
            <dt className="truncate text-muted">{k}</dt>
            <dd className="break-all">{v}</dd>
          </div>
        ))}
      </dl>
      {body === '' ? <p className="text-[11px] text-faint">empty body</p> : <div className="overflow-hidden rounded border border-line"><CodeView value={body} label={label} language={isJson ? 'json' : 'text'} maxHeight="12rem" /></div>}
    </div>
  );
}
