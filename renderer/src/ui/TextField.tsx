import { useId, type InputHTMLAttributes, type ReactNode } from 'react';

/** A labelled one-line input with optional help and error (both tied to it with aria-describedby). */
export function TextField({
  label,
  value,
  onChange,
  help,
  error,
  mono = true,
  after,
  className = '',
  ...rest
}: { label: string; value: string; onChange(value: string): void; help?: ReactNode; error?: string | null; mono?: boolean; after?: ReactNode; className?: string } & Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'className'>) {
  const id = useId();
  const helpId = `${id}-help`;
  const errorId = `${id}-error`;
  const describedBy = [help ? helpId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`flex min-w-0 flex-col gap-1 ${className}`}>
      <label htmlFor={id} className="text-xs text-muted">
        {label}
      </label>
      <div className="flex items-center gap-1">
        <input
          id={id}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          spellCheck={false}
          autoComplete="off"
          className={`h-7 w-full min-w-0 rounded-md border bg-panel px-2 text-xs ${mono ? 'font-mono' : ''} ${error ? 'border-err' : 'border-line focus-visible:border-accent aria-invalid:border-err'}`}
          {...rest}
        />
        {after}
      </div>
      {help && (
        <p id={helpId} className="text-[11px] text-faint">
          {help}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-[11px] whitespace-pre-line wrap-anywhere text-err">
          {error}
        </p>
      )}
    </div>
  );
}
