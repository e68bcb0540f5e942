import { KeyRound } from 'lucide-react';

/** Shown when this page was opened without the token (e.g. a bookmark in a new tab). */
export function NoToken() {
  return (
    <div className="flex h-full items-center justify-center p-8">
      <section className="max-w-md rounded-xl border border-line bg-panel p-6 text-[13px]">
        <KeyRound aria-hidden className="size-6 text-accent" />
        <h1 className="mt-3 text-lg font-semibold">Open Hookbench from its ready link</h1>
        <p className="mt-2 text-muted">
          This page needs the API token that <code className="font-mono">hookbench serve</code> prints when it starts:
        </p>
        <pre className="mt-2 overflow-x-auto rounded bg-panel-2 p-2 font-mono text-xs">Hookbench ready: http://127.0.0.1:4400/?token=…</pre>
        <p className="mt-2 text-muted">
          Open that link (it is also in <code className="font-mono">server.json</code> in the data dir, as <code className="font-mono">uiUrl</code>). The token then stays in this tab only.
        </p>
      </section>
    </div>
  );
}
