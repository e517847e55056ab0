/**
 * How the reports screen writes its figures (docs/product.md#reports): pt-BR numbers, durations as
 * '45 s', '1 min 30 s', '2 h 05 min', '1 d 3 h', dates of the account's calendar as dd/MM/yyyy, and
 * the change against the previous period.
 */

const pad = (n: number) => String(n).padStart(2, '0');

/** A duration in milliseconds, rounded to the two largest units; '—' without one. */
export function formatReportDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || Number.isNaN(ms)) return '—';
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return seconds % 60 ? `${minutes} min ${pad(seconds % 60)} s` : `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${hours} h ${pad(minutes % 60)} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${days} d ${hours % 24} h` : `${days} d`;
}

/** A calendar date 'YYYY-MM-DD' as dd/MM/yyyy (no time zone involved: it is already the account's day). */
export const formatReportDate = (date: string): string => `${date.slice(8, 10)}/${date.slice(5, 7)}/${date.slice(0, 4)}`;

/** The short day of a chart's axis: dd/MM. */
export const formatShortDate = (date: string): string => `${date.slice(8, 10)}/${date.slice(5, 7)}`;

const integer = new Intl.NumberFormat('pt-BR');
const decimal = new Intl.NumberFormat('pt-BR', { minimumFractionDigits: 1, maximumFractionDigits: 2 });

export const formatCount = (n: number): string => integer.format(n);

/** An average score: '4,5'; '—' without one. */
export const formatScore = (score: number | null): string => (score === null ? '—' : decimal.format(score));

/**
 * The change from the previous period: '+12%', '−5%', 'igual'; null when there is nothing to
 * compare with (no figure before).
 */
export function formatChange(now: number | null, before: number | null): string | null {
  if (now === null || before === null || before === 0) return null;
  const percent = Math.round(((now - before) / before) * 100);
  if (percent === 0) return 'igual';
  return `${percent > 0 ? '+' : '−'}${integer.format(Math.abs(percent))}%`;
}

export const weekdayShort = ['Dom', 'Seg', 'Ter', 'Qua', 'Qui', 'Sex', 'Sáb'] as const;
