import { AlertCircle, CheckCircle2, Info, X } from 'lucide-react';
import { useRouter } from '../stores/router';
import { toastsFor, useToasts, type Toast } from '../stores/toasts';

const ICON: Record<Toast['tone'], typeof Info> = { error: AlertCircle, info: Info, success: CheckCircle2 };
const TONE: Record<Toast['tone'], string> = { error: 'text-err', info: 'text-info', success: 'text-ok' };

/** Errors stay until dismissed; the others fade after a few seconds, and show only on the screen they were said on. */
export function Toasts() {
  const { toasts, dismiss } = useToasts();
  const view = useRouter((s) => s.route.view);
  return (
    // Above the footers (History's retention bar): a toast never covers the controls of a screen's last row.
    <div aria-live="polite" className="pointer-events-none fixed right-4 bottom-12 z-50 flex w-96 max-w-[calc(100vw-2rem)] flex-col gap-2">
      {toastsFor(toasts, view).map((t) => {
        const Icon = ICON[t.tone];
        return (
          <div key={t.id} role={t.tone === 'error' ? 'alert' : 'status'} className="pointer-events-auto flex gap-2.5 rounded-lg border border-line bg-panel p-3 shadow-pop">
            <Icon aria-hidden className={`mt-0.5 size-4 shrink-0 ${TONE[t.tone]}`} />
            <div className="min-w-0 flex-1">
              <div className="text-[13px] font-semibold">{t.title}</div>
              <div className="mt-0.5 text-xs break-words text-muted">{t.message}</div>
              {t.field && (
                <div className="mt-1 text-xs text-muted">
                  field: <code className="rounded bg-panel-2 px-1 font-mono text-fg">{t.field}</code>
                </div>
              )}
            </div>
            <button type="button" aria-label={`Dismiss: ${t.title}`} onClick={() => dismiss(t.id)} className="h-6 w-6 shrink-0 rounded text-faint hover:bg-hover hover:text-fg">
              <X aria-hidden className="mx-auto size-3.5" />
            </button>
          </div>
        );
      })}
    </div>
  );
}
