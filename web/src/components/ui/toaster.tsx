import { useEffect } from 'react';
import { createPortal } from 'react-dom';
import { CheckCircle2, Info, X, XCircle } from 'lucide-react';
import { dismissToast, toastStore, type Toast } from '#web/lib/notify.ts';
import { useStore } from '#web/lib/store.ts';
import { cn } from '#web/lib/cn.ts';

const icons = { success: CheckCircle2, error: XCircle, info: Info } as const;
const tones = { success: 'text-success', error: 'text-danger', info: 'text-brand' } as const;

function ToastItem({ toast }: { toast: Toast }) {
  useEffect(() => {
    if (!toast.duration) return;
    const timer = setTimeout(() => dismissToast(toast.id), toast.duration);
    return () => clearTimeout(timer);
  }, [toast.id, toast.duration]);
  const Icon = icons[toast.tone];
  return (
    <div
      role={toast.tone === 'error' ? 'alert' : 'status'}
      className="animate-enter pointer-events-auto flex w-full items-start gap-3 rounded-xl border border-border bg-surface p-4 shadow-pop"
    >
      <Icon className={cn('mt-0.5 size-5 shrink-0', tones[toast.tone])} aria-hidden="true" />
      <div className="min-w-0 flex-1">
        <p className="text-sm font-semibold text-fg">{toast.title}</p>
        {toast.message ? <p className="mt-0.5 text-sm text-fg-muted">{toast.message}</p> : null}
      </div>
      <button
        type="button"
        onClick={() => dismissToast(toast.id)}
        className="-m-1 flex size-7 shrink-0 items-center justify-center rounded-md text-fg-muted hover:bg-surface-2 hover:text-fg focus-visible:outline-2 focus-visible:outline-ring"
        aria-label="Fechar notificação"
      >
        <X className="size-4" aria-hidden="true" />
      </button>
    </div>
  );
}

/** The toast region, outside the app root so it stays readable while a dialog is open. */
export function Toaster() {
  const toasts = useStore(toastStore);
  return createPortal(
    <section
      aria-label="Notificações"
      aria-live="polite"
      className="pointer-events-none fixed inset-x-0 top-0 z-[60] flex justify-center p-4 sm:inset-x-auto sm:right-0 sm:justify-end"
    >
      <div className="flex w-full max-w-sm flex-col gap-2">
        {toasts.map((t) => (
          <ToastItem key={t.id} toast={t} />
        ))}
      </div>
    </section>,
    document.body,
  );
}
