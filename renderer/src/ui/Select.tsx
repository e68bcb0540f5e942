import { useId } from 'react';
import { ChevronDown } from 'lucide-react';

/** A native select with a visible label (its accessible name). */
export function Select({ label, value, onChange, options, className = '', labelHidden = false, labelClassName, selectClassName = '' }: { label: string; value: string; onChange(value: string): void; options: readonly (string | { value: string; label: string })[]; className?: string; labelHidden?: boolean; labelClassName?: string; selectClassName?: string }) {
  const id = useId();
  return (
    <div className={`flex items-center gap-1.5 ${className}`}>
      <label htmlFor={id} className={labelClassName ?? (labelHidden ? 'sr-only' : 'text-xs text-muted')}>
        {label}
      </label>
      <div className="relative">
        <select
          id={id}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          className={`h-7 appearance-none rounded-md border border-line bg-panel py-0 pr-7 pl-2 text-xs text-fg hover:border-line-strong focus-visible:border-accent ${selectClassName}`}
        >
          {options.map((o) => {
            const { value: v, label: l } = typeof o === 'string' ? { value: o, label: o } : o;
            return (
              <option key={v} value={v}>
                {l}
              </option>
            );
          })}
        </select>
        <ChevronDown aria-hidden className="pointer-events-none absolute top-1/2 right-2 size-3.5 -translate-y-1/2 text-faint" />
      </div>
    </div>
  );
}
