import type { ReactNode } from 'react';
import { cn } from '#web/lib/cn.ts';

/** The heading band of the static pages. */
export function PageHero({ eyebrow, title, children, updatedAt }: { eyebrow?: string; title: string; children?: ReactNode; updatedAt?: string }) {
  return (
    <div className="border-b border-border bg-bg-subtle px-4 py-14 sm:px-6 sm:py-20">
      <div className="mx-auto max-w-3xl">
        {eyebrow ? <p className="text-sm font-semibold tracking-wide text-brand uppercase">{eyebrow}</p> : null}
        <h1 className="mt-3 text-3xl font-semibold tracking-tight text-balance text-fg sm:text-5xl">{title}</h1>
        {children ? <div className="mt-5 text-base leading-relaxed text-fg-muted sm:text-lg">{children}</div> : null}
        {updatedAt ? (
          <p className="mt-5 text-sm text-fg-muted">
            Última atualização: <time>{updatedAt}</time>
          </p>
        ) : null}
      </div>
    </div>
  );
}

/** Long-form text with consistent rhythm (headings, paragraphs, lists, links). */
export function Prose({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <div
      className={cn(
        'mx-auto max-w-3xl px-4 py-12 text-[15px] leading-7 text-fg-muted sm:px-6 sm:py-16',
        '[&_h2]:mt-12 [&_h2]:mb-4 [&_h2]:scroll-mt-24 [&_h2]:text-xl [&_h2]:font-semibold [&_h2]:tracking-tight [&_h2]:text-fg [&_h2:first-child]:mt-0',
        '[&_h3]:mt-8 [&_h3]:mb-2 [&_h3]:font-semibold [&_h3]:text-fg',
        '[&_p]:mb-4 [&_ul]:mb-4 [&_ul]:list-disc [&_ul]:space-y-2 [&_ul]:pl-5 [&_ol]:mb-4 [&_ol]:list-decimal [&_ol]:space-y-2 [&_ol]:pl-5',
        '[&_a]:font-medium [&_a]:text-brand [&_a]:underline [&_a]:underline-offset-4 [&_strong]:font-semibold [&_strong]:text-fg',
        className,
      )}
    >
      {children}
    </div>
  );
}

/** A table of contents for the legal pages. */
export function Toc({ items }: { items: { id: string; label: string }[] }) {
  return (
    <nav aria-label="Nesta página" className="mb-10 rounded-2xl border border-border bg-surface p-5">
      <p className="text-sm font-semibold text-fg">Nesta página</p>
      <ol className="mt-3 grid list-decimal gap-x-6 gap-y-1.5 pl-5 text-sm sm:grid-cols-2 [&_a]:no-underline! hover:[&_a]:underline!">
        {items.map((i) => (
          <li key={i.id}>
            <a href={`#${i.id}`}>{i.label}</a>
          </li>
        ))}
      </ol>
    </nav>
  );
}
