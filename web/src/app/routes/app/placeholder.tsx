import type { ReactNode } from 'react';
import { Construction } from 'lucide-react';
import { usePageMeta } from '#web/lib/seo.ts';

/** An honest page for an area that is not built yet: its title and an "em construção" note. */
export function PlaceholderPage({ title, description, children }: { title: string; description: string; children?: ReactNode }) {
  usePageMeta({ title, noindex: true });
  return (
    <div className="mx-auto max-w-5xl px-4 py-8 sm:px-8 sm:py-10">
      <h1 className="text-2xl font-semibold tracking-tight text-fg">{title}</h1>
      <p className="mt-1 text-sm text-fg-muted">{description}</p>
      <div className="mt-8 flex flex-col items-center rounded-2xl border border-dashed border-border-strong bg-surface px-6 py-16 text-center">
        <span className="flex size-12 items-center justify-center rounded-xl bg-warning-soft text-warning">
          <Construction className="size-6" aria-hidden="true" />
        </span>
        <h2 className="mt-4 text-base font-semibold text-fg">Em construção</h2>
        <p className="mt-1 max-w-md text-sm text-fg-muted">Esta área ainda está sendo construída e estará disponível em breve.</p>
        {children}
      </div>
    </div>
  );
}
