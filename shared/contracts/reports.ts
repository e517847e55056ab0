/**
 * Reports ('Relatórios', docs/product.md#reports): the period asked for and the figures answered,
 * computed from the daily rollups of the conversation events (ADR-0234). Dates are
 * calendar dates in the account's time zone; durations are milliseconds.
 */
import { z } from 'zod';
import { dateField } from './business-hours.ts';
import { requiredText } from './fields.ts';

/** The longest period a report reads (a year, a leap one too). */
export const maxReportDays = 366;
/** The longest period one rebuild of the rollups covers (a quarter). */
export const maxRebuildDays = 92;

export const reportTexts = {
  order: 'A data final deve ser igual ou posterior à data inicial',
  tooLong: `Escolha um período de até ${maxReportDays} dias`,
  rebuildTooLong: `Reconstrua no máximo ${maxRebuildDays} dias por vez`,
  compare: 'Comparação desconhecida',
} as const;

/** Whole days from `from` to `to`, both included (calendar arithmetic on the date strings). */
export const daysBetween = (from: string, to: string): number => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;

const period = (maxDays: number, tooLong: string) =>
  z
    .object({ from: dateField, to: dateField }, { error: requiredText })
    .refine((p) => p.to >= p.from, { error: reportTexts.order, path: ['to'] })
    .refine((p) => p.to < p.from || daysBetween(p.from, p.to) <= maxDays, { error: tooLong, path: ['to'] });

/** GET /reports?from&to&compare=previous. */
export const reportQuerySchema = z
  .object({
    from: dateField,
    to: dateField,
    compare: z.enum(['previous'], { error: reportTexts.compare }).optional(),
  })
  .refine((p) => p.to >= p.from, { error: reportTexts.order, path: ['to'] })
  .refine((p) => p.to < p.from || daysBetween(p.from, p.to) <= maxReportDays, { error: reportTexts.tooLong, path: ['to'] });
export type ReportQuery = z.infer<typeof reportQuerySchema>;

/** POST /reports/rebuild: the days whose rollups are computed again from their events. */
export const reportRebuildSchema = period(maxRebuildDays, reportTexts.rebuildTooLong);
export type ReportRebuild = z.infer<typeof reportRebuildSchema>;

/** A duration's median and 90th percentile (null without a sample), within the bound of ADR-0234. */
export interface DurationFigures {
  count: number;
  median: number | null;
  p90: number | null;
}

export interface RatingFigures {
  count: number;
  /** null without a rating. */
  average: number | null;
  /** Counts of the scores 1 to 5, in that order. */
  distribution: [number, number, number, number, number];
}

export interface ReportFigures {
  /** Conversations started (a new protocol). */
  opened: number;
  /** Resolutions (by the team or by the inactivity rule). */
  resolved: number;
  /** Conversations that ended the day they started with neither an answer by a person nor a resolution. */
  waiting: number;
  firstResponse: DurationFigures;
  resolution: DurationFigures;
  /** How long the waiting ones had waited when their first day ended. */
  waitingTime: DurationFigures;
  ratings: RatingFigures;
}

export interface ReportRow extends ReportFigures {
  id: string;
  /** The agent's, department's or connection's name ('Sem departamento', or 'Removido' for one gone). */
  name: string;
}

export interface ReportDayFigures extends ReportFigures {
  date: string;
}

export interface ReportPeriod {
  from: string;
  to: string;
  totals: ReportFigures;
}

export interface ReportAnswer extends ReportPeriod {
  /** The account's zone the days are counted in. */
  timeZone: string;
  /** account: an admin sees everyone's; own: a member sees their own figures. */
  scope: 'account' | 'own';
  days: ReportDayFigures[];
  agents: ReportRow[];
  departments: ReportRow[];
  connections: ReportRow[];
  /** Conversations started by weekday (0 = Sunday) and hour of the account's zone: 7 rows of 24. */
  busiestHours: number[][];
  /** The period of the same length just before (compare=previous). */
  previous?: ReportPeriod;
}

export interface ReportRebuildAnswer {
  days: number;
  events: number;
}
