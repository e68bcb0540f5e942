/** An on/off switch (role switch) whose accessible name is `label`; `title` says why it is disabled. */
export function Switch({ checked, onChange, label, disabled = false, title, showLabel = false }: { checked: boolean; onChange(next: boolean): void; label: string; disabled?: boolean; title?: string; showLabel?: boolean }) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      aria-label={label}
      disabled={disabled}
      title={title}
      onClick={() => onChange(!checked)}
      className="inline-flex h-6 shrink-0 items-center gap-2 rounded-md px-0.5 text-xs text-muted disabled:cursor-not-allowed disabled:opacity-45"
    >
      <span className={`relative h-4 w-7 rounded-full transition-colors ${checked ? 'bg-ok' : 'bg-line-strong'}`} aria-hidden>
        <span className={`absolute top-0.5 size-3 rounded-full bg-white shadow-sm transition-all ${checked ? 'left-3.5' : 'left-0.5'}`} />
      </span>
      {showLabel && <span className={checked ? 'text-fg' : ''}>{checked ? 'On' : 'Off'}</span>}
    </button>
  );
}
