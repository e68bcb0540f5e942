import { Hammer } from 'lucide-react';
import type { View } from '../../stores/router';

const PLANS: Partial<Record<View, { title: string; lines: string[] }>> = {
  destinations: {
    title: 'Destinations',
    lines: [
      'A guided setup: pick Webhooks, choose sources, add up to five URLs with static headers, a shared secret, then switch it on.',
      'Edit timeouts, the retry ladder (with a preview) and event filters; point a first destination at the mock receiver in one click.',
    ],
  },
  sources: {
    title: 'Sources',
    lines: ['Write keys (masked, copyable), usage counters, and SDK snippets that point at this workbench.', 'The ingest log: refused requests with their reason, field and limit.'],
  },
  history: {
    title: 'History',
    lines: ['Search every stored message by status, type, source, destination, user, event or body text.', 'Select many to retry, cancel, replay or export (JSON, HAR, cURL).'],
  },
  troubleshoot: {
    title: 'Troubleshoot',
    lines: ['A live checklist computed from your data: no events from a source, events received but not delivered, slow deliveries — each with its evidence.'],
  },
  audiences: {
    title: 'Audiences',
    lines: ['Define audiences and computed traits with a small rule editor, sync them, and see the identify calls each sync produced.'],
  },
};

/** A calm page for screens that come next: it says what they will do. */
export function ComingNext({ view }: { view: View }) {
  const plan = PLANS[view];
  if (!plan) return null;
  return (
    <div className="flex h-full items-center justify-center p-8">
      <section className="max-w-lg rounded-xl border border-line bg-panel p-6">
        <div className="flex items-center gap-2 text-faint">
          <Hammer aria-hidden className="size-4" />
          <span className="text-[11px] font-medium tracking-wide uppercase">Coming next</span>
        </div>
        <h1 className="mt-2 text-lg font-semibold">{plan.title}</h1>
        <ul className="mt-3 list-disc space-y-1.5 pl-5 text-[13px] text-muted">
          {plan.lines.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
        <p className="mt-4 text-xs text-faint">Until then, the typed API and the CLI do all of this (see the README).</p>
      </section>
    </div>
  );
}
