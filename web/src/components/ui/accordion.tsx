import { useId, useState, type ReactNode } from 'react';
import { ChevronDown } from 'lucide-react';
import { cn } from '#web/lib/cn.ts';

export interface AccordionItem {
  id: string;
  title: ReactNode;
  content: ReactNode;
}

/** An accordion with one panel open at a time (WAI-ARIA accordion pattern). */
export function Accordion({
  items,
  defaultOpen = null,
  headingLevel = 3,
  className,
}: {
  items: AccordionItem[];
  defaultOpen?: string | null;
  headingLevel?: 2 | 3 | 4;
  className?: string;
}) {
  const [openId, setOpenId] = useState<string | null>(defaultOpen);
  const baseId = useId();
  const Heading = `h${headingLevel}` as 'h3';

  return (
    <div className={cn('divide-y divide-border rounded-2xl border border-border bg-surface', className)}>
      {items.map((item) => {
        const open = openId === item.id;
        const buttonId = `${baseId}-${item.id}-button`;
        const panelId = `${baseId}-${item.id}-panel`;
        return (
          <div key={item.id}>
            <Heading className="m-0">
              <button
                type="button"
                id={buttonId}
                aria-expanded={open}
                aria-controls={panelId}
                onClick={() => setOpenId(open ? null : item.id)}
                className="flex w-full items-center justify-between gap-4 rounded-2xl px-5 py-4 text-left text-base font-medium text-fg hover:text-brand focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring"
              >
                <span>{item.title}</span>
                <ChevronDown className={cn('size-5 shrink-0 text-fg-muted transition-transform duration-200', open && 'rotate-180')} aria-hidden="true" />
              </button>
            </Heading>
            <section id={panelId} aria-labelledby={buttonId} hidden={!open} className="px-5 pb-5 text-sm leading-relaxed text-fg-muted">
              {item.content}
            </section>
          </div>
        );
      })}
    </div>
  );
}
