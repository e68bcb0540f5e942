import type { ButtonHTMLAttributes, ReactNode, Ref } from 'react';
import { LoaderCircle } from 'lucide-react';

type Variant = 'default' | 'primary' | 'ghost' | 'danger' | 'confirm-danger';

const VARIANT: Record<Variant, string> = {
  default: 'border border-line bg-panel text-fg hover:bg-hover',
  primary: 'border border-transparent bg-accent text-accent-fg hover:brightness-110',
  ghost: 'border border-transparent text-muted hover:bg-hover hover:text-fg',
  danger: 'border border-line bg-panel text-err hover:bg-err-soft',
  /** The button that confirms something destructive: filled, so it never reads like Cancel beside it. */
  'confirm-danger': 'border border-transparent bg-err text-white hover:brightness-110 dark:text-bg',
};

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: Variant;
  icon?: ReactNode;
  busy?: boolean;
  size?: 'sm' | 'md';
  ref?: Ref<HTMLButtonElement>;
}

export function Button({ variant = 'default', icon, busy, size = 'sm', className = '', children, disabled, type = 'button', ...rest }: ButtonProps) {
  const sizing = size === 'sm' ? 'h-7 px-2 text-xs gap-1.5' : 'h-8 px-3 text-[13px] gap-2';
  return (
    <button
      type={type}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
      className={`inline-flex shrink-0 items-center justify-center rounded-md font-medium whitespace-nowrap transition-colors disabled:cursor-not-allowed disabled:opacity-45 ${sizing} ${VARIANT[variant]} ${className}`}
      {...rest}
    >
      {busy ? <LoaderCircle aria-hidden className="size-3.5 animate-spin" /> : icon}
      {children}
    </button>
  );
}
