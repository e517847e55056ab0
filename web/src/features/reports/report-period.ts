/**
 * The periods the reports screen offers (docs/product.md#reports): the last 7, 30 or 90 days and
 * this month, ending today, or dates of one's own; and the previous period of the same length.
 * Dates are calendar dates ('YYYY-MM-DD'); today is the account's (its zone, once an answer named
 * it) or else the browser's.
 */
import { daysBetween, maxReportDays, reportTexts } from '#contracts/reports.ts';

export type ReportPreset = '7' | '30' | '90' | 'month' | 'custom';

export const presetLabels: Record<ReportPreset, string> = {
  '7': 'Últimos 7 dias',
  '30': 'Últimos 30 dias',
  '90': 'Últimos 90 dias',
  month: 'Este mês',
  custom: 'Personalizado',
};

export interface ReportPeriod {
  from: string;
  to: string;
}

/** Today's date in a zone ('YYYY-MM-DD'); the browser's zone without one. */
export function todayIn(timeZone: string | undefined, now: Date = new Date()): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(now).map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** A date moved by whole days (calendar arithmetic). */
export const addDays = (date: string, days: number): string => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

export function presetPeriod(preset: Exclude<ReportPreset, 'custom'>, today: string): ReportPeriod {
  if (preset === 'month') return { from: `${today.slice(0, 8)}01`, to: today };
  return { from: addDays(today, 1 - Number(preset)), to: today };
}

/** What is wrong with a period typed in, in the words of the server's refusal; null when it is fine. */
export function periodError(period: ReportPeriod): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(period.from) || !/^\d{4}-\d{2}-\d{2}$/.test(period.to)) return 'Informe as duas datas';
  if (period.to < period.from) return reportTexts.order;
  if (daysBetween(period.from, period.to) > maxReportDays) return reportTexts.tooLong;
  return null;
}
