import type { ButtonHTMLAttributes } from 'react';

type Variant = 'primary' | 'secondary' | 'ghost' | 'danger';

const VARIANTS: Record<Variant, string> = {
  primary:
    'bg-gradient-to-r from-brand-500 to-violet-brand text-white shadow-md shadow-brand-500/25 hover:brightness-105 active:brightness-95 disabled:from-slate-300 disabled:to-slate-300 disabled:text-slate-500 disabled:shadow-none dark:disabled:from-ink-600 dark:disabled:to-ink-600 dark:disabled:text-slate-400',
  secondary:
    'bg-slate-100 text-ink-800 hover:bg-slate-200 dark:bg-ink-700 dark:text-slate-100 dark:hover:bg-ink-600 disabled:opacity-50',
  ghost: 'text-brand-700 hover:bg-brand-50 dark:text-brand-300 dark:hover:bg-white/5 disabled:opacity-50',
  danger: 'bg-rose-500 text-white hover:bg-rose-600 disabled:opacity-50',
};

export function Button({
  variant = 'primary',
  className = '',
  type = 'button',
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant }) {
  return (
    <button
      type={type}
      className={`inline-flex min-h-11 items-center justify-center gap-2 rounded-xl px-5 text-sm font-semibold transition ${VARIANTS[variant]} ${className}`}
      {...rest}
    />
  );
}

export function Spinner({ className = '' }: { className?: string }) {
  return (
    <span
      className={`inline-block size-4 animate-spin rounded-full border-2 border-current border-r-transparent ${className}`}
      aria-hidden="true"
    />
  );
}

/**
 * A round button showing only an icon: its label is both the accessible name and the tooltip.
 * `className` brings the size and colours.
 */
export function IconButton({
  label,
  testId,
  className = '',
  type = 'button',
  ...rest
}: Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'aria-label' | 'title'> & { label: string; testId?: string }) {
  return (
    <button
      type={type}
      aria-label={label}
      title={label}
      data-testid={testId}
      className={`flex shrink-0 items-center justify-center rounded-full transition ${className}`}
      {...rest}
    />
  );
}
