import type { ReactNode } from 'react';

/** One label and its value in a two-column `<dl>` grid (an endpoint's or a source's facts). */
export function FactRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="contents">
      <dt className="py-1 text-muted">{label}</dt>
      <dd className="flex min-h-7 min-w-0 items-center gap-1">{children}</dd>
    </div>
  );
}
