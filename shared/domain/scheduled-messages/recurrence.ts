/**
 * When a scheduled message's occurrences fall (docs/product.md#scheduled-messages, ADR-0224). Everything is counted on the account's wall clock from the anchor (the first
 * date and time as chosen), never from the previous occurrence, so a monthly schedule on the 31st
 * goes on the last day of a shorter month and comes back to the 31st after it
 * (31/01 → 28/02 or 29/02 → 31/03). The wall-clock time becomes an instant through the zone
 * (zoned-time.ts), so a zone with DST keeps the chosen hour.
 */
import type { ScheduleRepeat } from '#contracts/scheduled-messages.ts';
import { instantOf, nextDate, wallClock } from '../business-hours/zoned-time.ts';

export interface Recurrence {
  repeat: ScheduleRepeat;
  /** 'YYYY-MM-DD' of the first occurrence, in the zone. */
  anchorDate: string;
  /** Minutes since the zone's midnight. */
  minutes: number;
  timeZone: string;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** The wall-clock date of occurrence `index` (0 is the anchor), or null when there is no such occurrence. */
export function occurrenceDate(recurrence: Pick<Recurrence, 'repeat' | 'anchorDate'>, index: number): string | null {
  const { repeat, anchorDate } = recurrence;
  switch (repeat) {
    case 'once':
      return index === 0 ? anchorDate : null;
    case 'daily':
      return nextDate(anchorDate, index);
    case 'weekly':
      return nextDate(anchorDate, 7 * index);
    case 'monthly': {
      const [year, month, day] = anchorDate.split('-').map(Number) as [number, number, number];
      const months = month - 1 + index;
      const y = year + Math.floor(months / 12);
      const m = (months % 12) + 1;
      return `${pad(y, 4)}-${pad(m)}-${pad(Math.min(day, daysInMonth(y, m)))}`;
    }
  }
}

/** The instant of occurrence `index`, or null when the schedule has no such occurrence. */
export function occurrenceAt(recurrence: Recurrence, index: number): number | null {
  const date = occurrenceDate(recurrence, index);
  return date === null ? null : instantOf(date, recurrence.minutes, recurrence.timeZone);
}

/**
 * The first occurrence after `index` that is later than `now`: a schedule fired late (a runtime
 * that was stopped) skips what it missed instead of sending a burst of old reminders. Null when
 * none is left (a one-off).
 */
export function nextOccurrenceAfter(recurrence: Recurrence, index: number, now: number): { index: number; at: number } | null {
  for (let next = index + 1; ; next++) {
    const at = occurrenceAt(recurrence, next);
    if (at === null) return null;
    if (at > now) return { index: next, at };
  }
}

/** 'dd/MM/yyyy HH:mm' of an instant in the zone (docs/product.md#who-it-is-for). */
export function formatInZone(instant: number, timeZone: string): string {
  const { date, minutes } = wallClock(instant, timeZone);
  const [y, m, d] = date.split('-');
  return `${d}/${m}/${y} ${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}

/** 'HH:mm' as minutes since midnight. */
export const minutesOf = (time: string): number => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
