import { ChevronLeft, ChevronRight, ChevronsLeft, ChevronsRight } from 'lucide-react';
import { cn } from '#web/lib/cn.ts';

/** The page numbers to show: up to 5 around the current one, with first, last and ellipses. */
export function pagerItems(page: number, pageCount: number, window = 5): (number | 'ellipsis-start' | 'ellipsis-end')[] {
  if (pageCount <= 0) return [];
  const half = Math.floor(window / 2);
  let start = Math.max(0, page - half);
  const end = Math.min(pageCount - 1, start + window - 1);
  start = Math.max(0, end - window + 1);
  const items: (number | 'ellipsis-start' | 'ellipsis-end')[] = [];
  if (start > 0) {
    items.push(0);
    if (start > 1) items.push('ellipsis-start');
  }
  for (let i = start; i <= end; i++) items.push(i);
  if (end < pageCount - 1) {
    if (end < pageCount - 2) items.push('ellipsis-end');
    items.push(pageCount - 1);
  }
  return items;
}

export const pageSizes = [3, 10, 20, 50, 100, 200, 500];

const itemClass =
  'flex h-8 min-w-8 items-center justify-center rounded-lg px-2 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-ring disabled:pointer-events-none disabled:opacity-40';

export interface PaginationProps {
  page: number;
  perPage: number;
  total: number;
  onPageChange: (page: number) => void;
  /** When given, a page-size select is shown with these choices. */
  pageSizeOptions?: number[];
  onPerPageChange?: (perPage: number) => void;
  idPrefix?: string;
}

/** The pager (docs/product.md#screens): first, previous, up to 5 numbers with ellipses, next, last; and the page size. */
export function Pagination({ page, perPage, total, onPageChange, pageSizeOptions, onPerPageChange, idPrefix = 'pager' }: PaginationProps) {
  const pageCount = Math.max(1, Math.ceil(total / perPage));
  const from = total === 0 ? 0 : page * perPage + 1;
  const to = Math.min(total, (page + 1) * perPage);
  return (
    <div className="flex flex-col items-center justify-between gap-3 border-t border-border px-4 py-3 sm:flex-row">
      <div className="flex items-center gap-3 text-sm text-fg-muted">
        {pageSizeOptions && onPerPageChange ? (
          <span className="flex items-center gap-2">
            <label htmlFor={`${idPrefix}-size`}>Por página</label>
            <select
              id={`${idPrefix}-size`}
              value={perPage}
              onChange={(e) => onPerPageChange(Number(e.target.value))}
              className="h-8 rounded-lg border border-border-strong bg-surface px-2 text-sm text-fg focus-visible:outline-2 focus-visible:outline-ring"
            >
              {pageSizeOptions.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </span>
        ) : null}
        <span aria-live="polite">
          {from}–{to} de {total}
        </span>
      </div>
      <nav aria-label="Paginação" className="flex items-center gap-1">
        <button
          type="button"
          className={cn(itemClass, 'text-fg-muted hover:bg-surface-2')}
          onClick={() => onPageChange(0)}
          disabled={page === 0}
          aria-label="Primeira página"
        >
          <ChevronsLeft className="size-4" aria-hidden="true" />
        </button>
        <button
          type="button"
          className={cn(itemClass, 'text-fg-muted hover:bg-surface-2')}
          onClick={() => onPageChange(page - 1)}
          disabled={page === 0}
          aria-label="Página anterior"
        >
          <ChevronLeft className="size-4" aria-hidden="true" />
        </button>
        {pagerItems(page, pageCount).map((item) =>
          typeof item === 'number' ? (
            <button
              key={item}
              type="button"
              onClick={() => onPageChange(item)}
              aria-current={item === page ? 'page' : undefined}
              aria-label={`Página ${item + 1}`}
              className={cn(itemClass, item === page ? 'bg-brand text-brand-fg' : 'text-fg hover:bg-surface-2')}
            >
              {item + 1}
            </button>
          ) : (
            <span key={item} className="px-1 text-fg-muted" aria-hidden="true">
              …
            </span>
          ),
        )}
        <button
          type="button"
          className={cn(itemClass, 'text-fg-muted hover:bg-surface-2')}
          onClick={() => onPageChange(page + 1)}
          disabled={page >= pageCount - 1}
          aria-label="Próxima página"
        >
          <ChevronRight className="size-4" aria-hidden="true" />
        </button>
        <button
          type="button"
          className={cn(itemClass, 'text-fg-muted hover:bg-surface-2')}
          onClick={() => onPageChange(pageCount - 1)}
          disabled={page >= pageCount - 1}
          aria-label="Última página"
        >
          <ChevronsRight className="size-4" aria-hidden="true" />
        </button>
      </nav>
    </div>
  );
}
