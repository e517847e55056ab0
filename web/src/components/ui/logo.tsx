import { cn } from '#web/lib/cn.ts';

/** The Conversa mark: a speech bubble with three dots. */
export function LogoMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={cn('size-8', className)} aria-hidden="true">
      <rect width="32" height="32" rx="8" className="fill-brand" />
      <path
        d="M9 10.5A2.5 2.5 0 0 1 11.5 8h9A2.5 2.5 0 0 1 23 10.5v7a2.5 2.5 0 0 1-2.5 2.5H15l-4.2 3.4c-.5.4-1.3 0-1.3-.6V20A2.5 2.5 0 0 1 9 17.5z"
        className="fill-brand-fg"
      />
      <circle cx="13" cy="14" r="1.3" className="fill-brand" />
      <circle cx="16" cy="14" r="1.3" className="fill-brand" />
      <circle cx="19" cy="14" r="1.3" className="fill-brand" />
    </svg>
  );
}

export function Logo({ className, compact = false }: { className?: string; compact?: boolean }) {
  return (
    <span className={cn('inline-flex items-center gap-2 font-semibold tracking-tight text-fg', className)}>
      <LogoMark className="size-8" />
      {compact ? <span className="sr-only">Conversa</span> : <span className="text-lg">Conversa</span>}
    </span>
  );
}
