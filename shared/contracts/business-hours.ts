/**
 * Business hours ('Horário de atendimento', docs/conversation-lifecycle.md): the account's weekly
 * shifts (several a day), its time zone and its holidays; a department may have shifts of its own
 * and keeps the account's zone and holidays. Times are wall-clock times in the account's zone,
 * never the server's (ADR-0214). A shift ends the day it starts:
 * one that crosses midnight is refused and entered as two shifts.
 */
import { z } from 'zod';
import { idField, requiredString, requiredText } from './fields.ts';

export const defaultTimeZone = 'America/Sao_Paulo';

/** Sunday first, as `Date.getDay()` and Intl count them. */
export const weekdayLabels = ['Domingo', 'Segunda-feira', 'Terça-feira', 'Quarta-feira', 'Quinta-feira', 'Sexta-feira', 'Sábado'] as const;

export const businessHoursTexts = {
  time: 'Use o formato HH:mm (00:00 a 24:00)',
  weekday: 'Escolha um dia da semana',
  shiftOrder: 'O fim do turno deve ser depois do início. Para atravessar a meia-noite, cadastre dois turnos (até 24:00 e a partir de 00:00)',
  shiftOverlap: 'Este turno se sobrepõe a outro turno do mesmo dia',
  timeZone: 'Fuso horário inválido',
  date: 'Use uma data válida no formato AAAA-MM-DD',
  holidayRepeated: 'Esta data já está na lista de feriados',
  departmentRepeated: 'Este departamento já tem um horário próprio',
} as const;

/** Whether Intl knows the IANA zone (a bad name throws a RangeError). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone.length > 0;
  } catch {
    return false;
  }
}

/** Minutes since midnight of an 'HH:mm' (24:00 allowed as the end of a day). */
export const minutesOf = (time: string): number => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

const timePattern = /^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/;
const timeField = z.string({ error: requiredText }).trim().regex(timePattern, { error: businessHoursTexts.time });

export const shiftSchema = z
  .object(
    {
      weekday: z
        .number({ error: businessHoursTexts.weekday })
        .int({ error: businessHoursTexts.weekday })
        .min(0, { error: businessHoursTexts.weekday })
        .max(6, { error: businessHoursTexts.weekday }),
      start: timeField,
      end: timeField,
    },
    { error: requiredText },
  )
  // Only once both times are valid: a bad time says so alone.
  .refine((shift) => !timePattern.test(shift.start) || !timePattern.test(shift.end) || minutesOf(shift.end) > minutesOf(shift.start), {
    error: businessHoursTexts.shiftOrder,
    path: ['end'],
  });
export type Shift = z.infer<typeof shiftSchema>;

/** The weekly shifts: at most 7 a day, none overlapping another of its day (touching is fine: 12:00-12:00). */
export const shiftsSchema = z
  .array(shiftSchema, { error: requiredText })
  .max(49, { error: 'Use no máximo 7 turnos por dia' })
  .superRefine((shifts, ctx) => {
    shifts.forEach((shift, i) => {
      const overlaps = shifts.some(
        (other, j) =>
          j < i && other.weekday === shift.weekday && minutesOf(other.start) < minutesOf(shift.end) && minutesOf(shift.start) < minutesOf(other.end),
      );
      if (overlaps) ctx.addIssue({ code: 'custom', message: businessHoursTexts.shiftOverlap, path: [i, 'start'] });
    });
  });

/** A calendar date 'YYYY-MM-DD' that exists (no 2026-02-30). */
export const dateField = z
  .string({ error: requiredText })
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: businessHoursTexts.date })
  // After a failed pattern zod still runs this: an unparsable string must not throw (Invalid Date).
  .refine(
    (date) => {
      const at = Date.parse(`${date}T00:00:00Z`);
      return !Number.isNaN(at) && new Date(at).toISOString().startsWith(date);
    },
    { error: businessHoursTexts.date },
  );

export const holidaySchema = z.object({ date: dateField, name: requiredString(60) }, { error: requiredText });

export const businessHoursSchema = z.object(
  {
    timeZone: z.string({ error: businessHoursTexts.timeZone }).trim().default(defaultTimeZone).refine(isTimeZone, { error: businessHoursTexts.timeZone }),
    shifts: shiftsSchema,
    /** Closed all day, in the account's zone. */
    holidays: z
      .array(holidaySchema, { error: requiredText })
      .max(200, { error: 'Use no máximo 200 feriados' })
      .superRefine((holidays, ctx) => {
        holidays.forEach((holiday, i) => {
          if (holidays.findIndex((other) => other.date === holiday.date) < i)
            ctx.addIssue({ code: 'custom', message: businessHoursTexts.holidayRepeated, path: [i, 'date'] });
        });
      })
      .default([]),
    /** Departments with shifts of their own (the account's zone and holidays still apply). */
    departments: z
      .array(z.object({ departmentId: idField, shifts: shiftsSchema }, { error: requiredText }), { error: requiredText })
      .max(100, { error: 'Use no máximo 100 departamentos' })
      .superRefine((departments, ctx) => {
        departments.forEach((department, i) => {
          if (departments.findIndex((other) => other.departmentId === department.departmentId) < i) {
            ctx.addIssue({ code: 'custom', message: businessHoursTexts.departmentRepeated, path: [i, 'departmentId'] });
          }
        });
      })
      .default([]),
  },
  { error: requiredText },
);
export type BusinessHours = z.infer<typeof businessHoursSchema>;

/** What an account that never saved its hours gets: Monday to Friday 08:00–18:00, Saturday 08:00–12:00. */
export const defaultBusinessHours: BusinessHours = {
  timeZone: defaultTimeZone,
  shifts: [...[1, 2, 3, 4, 5].map((weekday) => ({ weekday, start: '08:00', end: '18:00' })), { weekday: 6, start: '08:00', end: '12:00' }],
  holidays: [],
  departments: [],
};

/** `GET /business-hours`: the hours, whether they were ever saved, and the account's state now. */
export interface BusinessHoursAnswer extends BusinessHours {
  /** False while the account runs on `defaultBusinessHours`. */
  saved: boolean;
  updatedAt: string | null;
  /** The account's schedule (not a department's) at the moment of the answer. */
  now: { open: boolean; opensAt: string | null };
}
