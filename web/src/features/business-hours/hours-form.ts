/**
 * The 'Horário de atendimento' form's state and its two-way mapping to the API's `BusinessHours`:
 * rows carry a key for React, a shift ending at midnight is typed '00:00' (a time input cannot
 * hold '24:00') and sent as '24:00', and field messages (the schema's, or the server's `details`)
 * are keyed by the payload's paths, which follow the rows' order.
 */
import { type BusinessHours, type BusinessHoursAnswer, businessHoursSchema } from '#contracts/business-hours.ts';
import { brazilNationalHolidays } from '#contracts/brazil-holidays.ts';

export interface ShiftRow {
  key: string;
  weekday: number;
  start: string;
  end: string;
}
export interface HolidayRow {
  key: string;
  date: string;
  name: string;
}
export interface DepartmentRow {
  key: string;
  departmentId: string;
  shifts: ShiftRow[];
}
export interface HoursForm {
  timeZone: string;
  shifts: ShiftRow[];
  holidays: HolidayRow[];
  departments: DepartmentRow[];
}

/** Monday first, as a Brazilian business reads its week; Sunday (0) last. */
export const weekOrder = [1, 2, 3, 4, 5, 6, 0] as const;

let counter = 0;
export const newKey = () => `row-${++counter}`;

const shiftRows = (shifts: BusinessHours['shifts']): ShiftRow[] =>
  shifts.map((s) => ({ key: newKey(), weekday: s.weekday, start: s.start, end: s.end === '24:00' ? '00:00' : s.end }));

export function toForm(hours: BusinessHours | BusinessHoursAnswer): HoursForm {
  return {
    timeZone: hours.timeZone,
    shifts: shiftRows(hours.shifts),
    holidays: hours.holidays.map((h) => ({ key: newKey(), date: h.date, name: h.name })),
    departments: hours.departments.map((d) => ({ key: newKey(), departmentId: d.departmentId, shifts: shiftRows(d.shifts) })),
  };
}

const shiftsOut = (rows: ShiftRow[]) => rows.map((r) => ({ weekday: r.weekday, start: r.start, end: r.end === '00:00' ? '24:00' : r.end }));

export function toPayload(form: HoursForm): BusinessHours {
  return {
    timeZone: form.timeZone,
    shifts: shiftsOut(form.shifts),
    holidays: form.holidays.map((h) => ({ date: h.date, name: h.name })),
    departments: form.departments.map((d) => ({ departmentId: d.departmentId, shifts: shiftsOut(d.shifts) })),
  };
}

export type FieldErrors = Record<string, string>;

/** The first message per path, from `details` (the server's) or the schema's issues. */
export function errorsOf(details: { path: string; message: string }[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const d of details) errors[d.path] ??= d.message;
  return errors;
}

/**
 * Field messages keyed by the row they belong to (`<row key>.start`), so a message stays on its
 * row when rows are added, removed or copied before the next save; paths of no row stay as they are.
 */
export function rowErrors(form: HoursForm, errors: FieldErrors): FieldErrors {
  const out: FieldErrors = {};
  for (const [path, message] of Object.entries(errors)) {
    const parts = path.split('.');
    let key: string | undefined;
    let rest: string[] = [];
    if ((parts[0] === 'shifts' || parts[0] === 'holidays') && parts.length >= 2) {
      key = form[parts[0]][Number(parts[1])]?.key;
      rest = parts.slice(2);
    } else if (parts[0] === 'departments' && parts[2] === 'shifts' && parts.length >= 4) {
      key = form.departments[Number(parts[1])]?.shifts[Number(parts[3])]?.key;
      rest = parts.slice(4);
    } else if (parts[0] === 'departments' && parts.length >= 3) {
      key = form.departments[Number(parts[1])]?.key;
      rest = parts.slice(2);
    }
    const at = key ? [key, ...rest].join('.') : path;
    out[at] ??= message;
  }
  return out;
}

/** The messages left once a row changed: its own go, the others stay. */
export const withoutRow = (errors: FieldErrors, key: string): FieldErrors =>
  Object.fromEntries(Object.entries(errors).filter(([path]) => path !== key && !path.startsWith(`${key}.`)));

/** The schema's verdict on the form: the payload, or its field messages. */
export function checkForm(form: HoursForm): { ok: true; payload: BusinessHours } | { ok: false; errors: FieldErrors } {
  const parsed = businessHoursSchema.safeParse(toPayload(form));
  if (parsed.success) return { ok: true, payload: parsed.data };
  return { ok: false, errors: rowErrors(form, errorsOf(parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })))) };
}

/**
 * Adds Brazil's national holidays from `today` to the end of next year (pontos facultativos too
 * when asked), skipping dates already listed. Answers the rows and how many were added.
 */
export function withNationalHolidays(rows: HolidayRow[], today: string, optional: boolean): { rows: HolidayRow[]; added: number } {
  const year = Number(today.slice(0, 4));
  const have = new Set(rows.map((r) => r.date));
  const wanted = [...brazilNationalHolidays(year), ...brazilNationalHolidays(year + 1)].filter(
    (h) => h.date >= today && !have.has(h.date) && (optional || h.kind === 'feriado'),
  );
  const next = [...rows, ...wanted.map((h) => ({ key: newKey(), date: h.date, name: h.name }))].sort((a, b) =>
    a.date && b.date ? a.date.localeCompare(b.date) : 0,
  );
  return { rows: next, added: wanted.length };
}
