import { Download } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '#web/components/ui/button.tsx';
import { cn } from '#web/lib/cn.ts';
import { type CsvCell, downloadCsv, toCsv } from '#web/features/reports/report-csv.ts';

/** A table wider than a phone scrolls in a region a keyboard can focus and scroll. */
export const scrollRegion = (label: string) => ({ tabIndex: 0, role: 'region', 'aria-label': label });

export interface ReportColumn<Row> {
  label: string;
  /** What the CSV file holds (raw numbers: milliseconds, counts). */
  csv: (row: Row) => CsvCell;
  /** What the screen shows; the CSV value when absent. */
  show?: (row: Row) => ReactNode;
  /** Right-aligned, with tabular figures (the first column always names the row). */
  numeric?: boolean;
}

/**
 * A report's table with its 'Exportar CSV' (docs/product.md#reports): scrolls sideways on a phone
 * (a focusable region, so a keyboard scrolls it too). A chart drawn above it shows these numbers.
 */
export function ReportTable<Row>({
  id,
  caption,
  columns,
  rows,
  filename,
  empty = 'Nada neste período.',
}: {
  id: string;
  caption: string;
  columns: ReportColumn<Row>[];
  rows: Row[];
  filename: string;
  empty?: string;
}) {
  const exportCsv = () =>
    downloadCsv(
      filename,
      toCsv(
        columns.map((c) => c.label),
        rows.map((row) => columns.map((c) => c.csv(row))),
      ),
    );
  return (
    <div className="space-y-2">
      <div className="flex justify-end">
        <Button variant="outline" size="sm" onClick={exportCsv} disabled={!rows.length} aria-label={`Exportar CSV: ${caption}`}>
          <Download className="size-4" aria-hidden="true" /> Exportar CSV
        </Button>
      </div>
      <div className="relative overflow-x-auto rounded-xl border border-border" {...scrollRegion(caption)}>
        <table className="w-full min-w-max text-sm" data-testid={`report-table-${id}`}>
          <caption className="sr-only">{caption}</caption>
          <thead className="bg-surface-2 text-left text-xs text-fg-muted">
            <tr>
              {columns.map((c) => (
                <th key={c.label} scope="col" className={cn('px-3 py-2 font-medium', c.numeric && 'text-right')}>
                  {c.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.length ? (
              rows.map((row, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: rows keep their order for one answer
                <tr key={i} className="border-t border-border">
                  {columns.map((c, j) =>
                    j === 0 ? (
                      <th key={c.label} scope="row" className="px-3 py-2 text-left font-medium text-fg">
                        {c.show ? c.show(row) : c.csv(row)}
                      </th>
                    ) : (
                      <td key={c.label} className={cn('px-3 py-2 text-fg', c.numeric && 'text-right tabular-nums')}>
                        {c.show ? c.show(row) : c.csv(row)}
                      </td>
                    ),
                  )}
                </tr>
              ))
            ) : (
              <tr className="border-t border-border">
                <td colSpan={columns.length} className="px-3 py-4 text-center text-fg-muted">
                  {empty}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </div>
  );
}
