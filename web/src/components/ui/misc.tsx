import type { HTMLAttributes, ReactNode } from 'react';
import { cn } from '#web/lib/cn.ts';

export function Card({ className, ...rest }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cn('rounded-2xl border border-border bg-surface shadow-card', className)} {...rest} />;
}

export function Badge({
  children,
  tone = 'brand',
  className,
}: {
  children: ReactNode;
  tone?: 'brand' | 'neutral' | 'success' | 'danger' | 'warning';
  className?: string;
}) {
  const tones = {
    brand: 'bg-brand-soft text-brand-soft-fg',
    neutral: 'bg-surface-2 text-fg-muted',
    success: 'bg-success-soft text-success',
    danger: 'bg-danger-soft text-danger',
    warning: 'bg-warning-soft text-warning',
  } as const;
  return <span className={cn('inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-medium', tones[tone], className)}>{children}</span>;
}

export function Alert({
  tone = 'info',
  title,
  children,
  className,
}: {
  tone?: 'info' | 'success' | 'danger' | 'warning';
  title?: ReactNode;
  children?: ReactNode;
  className?: string;
}) {
  const tones = {
    info: 'border-brand/30 bg-brand-soft text-brand-soft-fg',
    success: 'border-success/30 bg-success-soft text-success',
    danger: 'border-danger/30 bg-danger-soft text-danger',
    warning: 'border-warning/30 bg-warning-soft text-warning',
  } as const;
  return (
    <div className={cn('rounded-xl border px-4 py-3 text-sm', tones[tone], className)}>
      {title ? <p className="font-semibold">{title}</p> : null}
      {children ? <div className={cn(title ? 'mt-1' : undefined, 'text-fg-muted')}>{children}</div> : null}
    </div>
  );
}

/** Content for screen readers only. */
