import { useEffect, useId, useRef, type ReactNode, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import { X } from 'lucide-react';
import { cn } from '#web/lib/cn.ts';

const focusableSelector = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  '[tabindex]:not([tabindex="-1"])',
].join(',');

function focusables(container: HTMLElement): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>(focusableSelector)].filter((el) => !el.closest('[inert]'));
}

/** Open dialogs, innermost last: only the top one answers Esc and keeps the focus. */
const stack: symbol[] = [];

export interface DialogProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  size?: 'sm' | 'md' | 'lg';
  /** 'alertdialog' for messages that need an answer (the error modal). */
  role?: 'dialog' | 'alertdialog';
  initialFocusRef?: RefObject<HTMLElement | null>;
  /** Hide the corner close button (the footer then must offer a way out). */
  hideClose?: boolean;
  /** 'left' slides a full-height panel from the left (the mobile menu). */
  placement?: 'center' | 'left';
  className?: string;
}

/**
 * A modal dialog: rendered over an overlay, closes on Esc and on the overlay, keeps Tab inside,
 * makes the page behind inert, and gives the focus back to where it was on close.
 */
export function Dialog({
  open,
  onClose,
  title,
  description,
  children,
  footer,
  size = 'md',
  role = 'dialog',
  initialFocusRef,
  hideClose = false,
  placement = 'center',
  className,
}: DialogProps) {
  const panelRef = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  const titleId = useId();
  const descriptionId = useId();

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on open and close only; initialFocusRef is read once, at opening, and onClose through a ref
  useEffect(() => {
    if (!open) return;
    const token = Symbol('dialog');
    stack.push(token);
    const previous = document.activeElement as HTMLElement | null;
    const root = document.getElementById('root');
    root?.setAttribute('inert', '');
    root?.setAttribute('aria-hidden', 'true');
    const previousOverflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';

    const panel = panelRef.current;
    const target = initialFocusRef?.current ?? (panel ? focusables(panel)[0] : null) ?? panel;
    target?.focus();

    const onKeyDown = (event: KeyboardEvent) => {
      if (stack[stack.length - 1] !== token || !panel) return;
      if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        onCloseRef.current();
        return;
      }
      if (event.key === 'Tab') {
        const items = focusables(panel);
        if (items.length === 0) {
          event.preventDefault();
          panel.focus();
          return;
        }
        const first = items[0]!;
        const last = items[items.length - 1]!;
        const active = document.activeElement;
        if (event.shiftKey && (active === first || !panel.contains(active))) {
          event.preventDefault();
          last.focus();
        } else if (!event.shiftKey && (active === last || !panel.contains(active))) {
          event.preventDefault();
          first.focus();
        }
      }
    };
    document.addEventListener('keydown', onKeyDown, true);

    return () => {
      document.removeEventListener('keydown', onKeyDown, true);
      const index = stack.indexOf(token);
      if (index >= 0) stack.splice(index, 1);
      if (stack.length === 0) {
        root?.removeAttribute('inert');
        root?.removeAttribute('aria-hidden');
        document.body.style.overflow = previousOverflow;
      }
      if (previous && document.contains(previous)) previous.focus();
    };
  }, [open]);

  if (!open) return null;

  const widths = { sm: 'max-w-sm', md: 'max-w-md', lg: 'max-w-lg' } as const;

  const drawer = placement === 'left';
  return createPortal(
    <div className={cn('fixed inset-0 z-50 flex', drawer ? 'justify-start' : 'items-end justify-center p-3 sm:items-center sm:p-6')}>
      <div className="animate-fade absolute inset-0 bg-overlay backdrop-blur-[2px]" aria-hidden="true" onClick={() => onCloseRef.current()} />
      {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: role is 'dialog' or 'alertdialog', both of which take aria-modal */}
      <div
        ref={panelRef}
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        tabIndex={-1}
        className={cn(
          'relative z-10 flex w-full flex-col overflow-hidden border-border bg-surface shadow-pop focus:outline-none',
          drawer ? 'animate-drawer h-dvh max-w-[18rem] border-r' : cn('animate-enter max-h-[calc(100dvh-1.5rem)] rounded-2xl border', widths[size]),
          className,
        )}
      >
        <div className="flex items-start justify-between gap-4 px-6 pt-5">
          <div className="space-y-1">
            <h2 id={titleId} className="text-lg font-semibold tracking-tight text-fg">
              {title}
            </h2>
            {description ? (
              <p id={descriptionId} className="text-sm text-fg-muted">
                {description}
              </p>
            ) : null}
          </div>
          {hideClose ? null : (
            <button
              type="button"
              onClick={() => onCloseRef.current()}
              className="-mt-1 -mr-2 flex size-9 shrink-0 items-center justify-center rounded-lg text-fg-muted hover:bg-surface-2 hover:text-fg focus-visible:outline-2 focus-visible:outline-ring"
              aria-label="Fechar"
            >
              <X className="size-4" aria-hidden="true" />
            </button>
          )}
        </div>
        {children ? <div className="overflow-y-auto px-6 py-4">{children}</div> : <div className="h-4" />}
        {footer ? <div className="flex flex-wrap justify-end gap-2 border-t border-border bg-bg-subtle px-6 py-3.5">{footer}</div> : null}
      </div>
    </div>,
    document.body,
  );
}
