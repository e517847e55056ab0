/**
 * The columns of the reports' tables (docs/product.md#reports): what each shows and what its CSV
 * holds (durations in seconds, counts, averages with a decimal comma).
 */
import type { ReportDayFigures, ReportFigures, ReportRow } from '#contracts/reports.ts';
import { formatCount, formatReportDate, formatReportDuration, formatScore } from './report-format.ts';
import type { ReportColumn } from './components/report-table.tsx';

const seconds = (ms: number | null) => (ms === null ? null : Math.round(ms / 1000));

function figureColumns<Row extends ReportFigures>(): ReportColumn<Row>[] {
  const duration = (label: string, pick: (r: Row) => number | null): ReportColumn<Row> => ({
    label,
    csv: (r) => seconds(pick(r)),
    show: (r) => formatReportDuration(pick(r)),
    numeric: true,
  });
  const count = (label: string, pick: (r: Row) => number): ReportColumn<Row> => ({ label, csv: pick, show: (r) => formatCount(pick(r)), numeric: true });
  return [
    count('Abertas', (r) => r.opened),
    count('Resolvidas', (r) => r.resolved),
    count('Aguardando', (r) => r.waiting),
    duration('1ª resposta (mediana)', (r) => r.firstResponse.median),
    duration('1ª resposta (p90)', (r) => r.firstResponse.p90),
    duration('Resolução (mediana)', (r) => r.resolution.median),
    duration('Resolução (p90)', (r) => r.resolution.p90),
    duration('Espera (mediana)', (r) => r.waitingTime.median),
    duration('Espera (p90)', (r) => r.waitingTime.p90),
    { label: 'Avaliação média', csv: (r) => r.ratings.average, show: (r) => formatScore(r.ratings.average), numeric: true },
    count('Avaliações', (r) => r.ratings.count),
  ];
}

/** Rows by agent, department or connection: the name first. */
export function rowColumns(nameLabel: string): ReportColumn<ReportRow>[] {
  return [{ label: nameLabel, csv: (r) => r.name }, ...figureColumns<ReportRow>()];
}

/** One row a day. */
export function dayColumns(): ReportColumn<ReportDayFigures>[] {
  return [{ label: 'Dia', csv: (r) => formatReportDate(r.date) }, ...figureColumns<ReportDayFigures>()];
}

export interface RatingRow {
  score: number;
  count: number;
  share: number;
}

export const ratingColumns: ReportColumn<RatingRow>[] = [
  { label: 'Nota', csv: (r) => r.score },
  { label: 'Avaliações', csv: (r) => r.count, show: (r) => formatCount(r.count), numeric: true },
  { label: 'Parcela (%)', csv: (r) => r.share, show: (r) => `${formatScore(r.share)}%`, numeric: true },
];

export function ratingRows(distribution: readonly number[]): RatingRow[] {
  const total = distribution.reduce((a, b) => a + b, 0);
  return distribution.map((count, i) => ({ score: i + 1, count, share: total ? Math.round((count / total) * 1000) / 10 : 0 }));
}

/** The CSV file's name: what it is and the period, 'relatorio-atendentes-2026-11-01-a-2026-11-27.csv'. */
export const csvName = (what: string, from: string, to: string) => `relatorio-${what}-${from}-a-${to}.csv`;
