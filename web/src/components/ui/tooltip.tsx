import { cloneElement, useEffect, useId, useState, type ReactElement, type ReactNode } from 'react';
import { cn } from '#web/lib/cn.ts';

export interface TooltipProps {
  content: ReactNode;
  /** A single focusable element (a button or a link). */
  children: ReactElement<{ 'aria-describedby'?: string }>;
  side?: 'top' | 'right' | 'bottom' | 'left';
  /** Only describe, never label: pass false when the trigger already has the same text. */
  describe?: boolean;
  /** Hide the tooltip entirely (e.g. a sidebar that is expanded shows the text already). */
  disabled?: boolean;
  className?: string;
}

const placement = {
  top: 'bottom-full left-1/2 mb-2 -translate-x-1/2',
  bottom: 'top-full left-1/2 mt-2 -translate-x-1/2',
  left: 'right-full top-1/2 mr-2 -translate-y-1/2',
  right: 'left-full top-1/2 ml-2 -translate-y-1/2',
} as const;

/** A tooltip shown on hover and keyboard focus, dismissed with Esc (WCAG 1.4.13). */
export function Tooltip({ content, children, side = 'top', describe = true, disabled = false, className }: TooltipProps) {
  const [open, setOpen] = useState(false);
  const id = useId();

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);

  if (disabled) return children;

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the wrapper only hears hover and focus bubbling from its interactive child, which is what users operate
    <span
      className="relative inline-flex"
      onMouseEnter={() => setOpen(true)}
      onMouseLeave={() => setOpen(false)}
      onFocus={() => setOpen(true)}
      onBlur={() => setOpen(false)}
    >
      {cloneElement(children, describe ? { 'aria-describedby': open ? id : undefined } : {})}
      {open ? (
        <span
          role="tooltip"
          id={id}
          className={cn(
            'animate-fade pointer-events-none absolute z-40 w-max max-w-60 rounded-md bg-fg px-2.5 py-1.5 text-xs font-medium text-bg shadow-pop',
            placement[side],
            className,
          )}
        >
          {content}
        </span>
      ) : null}
    </span>
  );
}
