import type { ReactNode } from 'react';

/** A calm, centred message that says what is going on and what to do next. */
export function EmptyState({ icon, title, children, action }: { icon: ReactNode; title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className="flex h-full min-h-40 flex-col items-center justify-center gap-2 px-8 text-center" role="status">
      <div className="mb-1 text-faint [&>svg]:size-8" aria-hidden>
        {icon}
      </div>
      <h2 className="text-sm font-semibold text-fg">{title}</h2>
      {children && <div className="max-w-md text-[13px] text-muted">{children}</div>}
      {action && <div className="mt-2">{action}</div>}
    </div>
  );
}
