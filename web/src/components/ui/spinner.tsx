import { cn } from '#web/lib/cn.ts';

export function Spinner({ className }: { className?: string }) {
  return (
    <svg className={cn('animate-spin', className ?? 'size-5')} viewBox="0 0 24 24" fill="none" aria-hidden="true">
      <circle cx="12" cy="12" r="9" stroke="currentColor" strokeOpacity="0.25" strokeWidth="3" />
      <path d="M21 12a9 9 0 0 0-9-9" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
    </svg>
  );
}

/** The placeholder while a page's code loads inside a layout. */
export function PageLoader() {
  return (
    <div className="flex min-h-[60vh] items-center justify-center" role="status" aria-live="polite">
      <div className="flex items-center gap-3 text-fg-muted">
        <Spinner className="size-5 text-brand" />
        <span className="text-sm font-medium">Carregando...</span>
      </div>
    </div>
  );
}

/** 'Carregando...' inside a dialog while the record it edits or shows is fetched. */
export function DialogLoading() {
  return (
    <div className="flex items-center gap-2 py-6 text-sm text-fg-muted" role="status">
      <Spinner className="size-4 text-brand" /> Carregando...
    </div>
  );
}
