/**
 * Whether a business is open at an instant, and when it opens next (docs/conversation-lifecycle.md#business-hours).
 * A schedule is read in its own zone: the wall clock of the instant there, its weekday's shifts
 * (start included, end excluded) and its holidays (closed the whole local day).
 */
import { type BusinessHours, minutesOf, type Shift } from '#contracts/business-hours.ts';
import { instantOf, nextDate, wallClock } from './zoned-time.ts';

export interface Schedule {
  /** Who the schedule is: 'account' or 'department:<id>' (names an out-of-hours spell). */
  owner: string;
  timeZone: string;
  shifts: readonly Shift[];
  /** 'YYYY-MM-DD' dates in the zone. */
  holidays: readonly string[];
}

/** The schedule a conversation in a department keeps: the department's shifts if it has its own, else the account's. */
export function scheduleFor(hours: BusinessHours, departmentId: string | null): Schedule {
  const own = departmentId ? hours.departments.find((d) => d.departmentId === departmentId) : undefined;
  return {
    owner: own ? `department:${own.departmentId}` : 'account',
    timeZone: hours.timeZone,
    shifts: own ? own.shifts : hours.shifts,
    holidays: hours.holidays.map((h) => h.date),
  };
}

const shiftsOn = (schedule: Schedule, weekday: number) =>
  schedule.shifts
    .filter((s) => s.weekday === weekday)
    .map((s) => ({ start: minutesOf(s.start), end: minutesOf(s.end) }))
    .sort((a, b) => a.start - b.start);

export function isOpen(schedule: Schedule, instant: number): boolean {
  const clock = wallClock(instant, schedule.timeZone);
  if (schedule.holidays.includes(clock.date)) return false;
  return shiftsOn(schedule, clock.weekday).some((s) => s.start <= clock.minutes && clock.minutes < s.end);
}

/**
 * The first instant at or after `instant` when the schedule is open (`instant` itself when open),
 * or null when it never opens (no shifts, or only on days that are holidays for over a year ahead).
 */
export function nextOpening(schedule: Schedule, instant: number): number | null {
  if (isOpen(schedule, instant)) return instant;
  const now = wallClock(instant, schedule.timeZone);
  // 200 holidays at most (the schema) plus a week of days: past that, nothing opens.
  for (let offset = 0; offset <= 400; offset++) {
    const date = nextDate(now.date, offset);
    if (schedule.holidays.includes(date)) continue;
    const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
    for (const shift of shiftsOn(schedule, weekday)) {
      if (offset === 0 && shift.start <= now.minutes) continue;
      const at = instantOf(date, shift.start, schedule.timeZone);
      if (at > instant && isOpen(schedule, at)) return at;
    }
  }
  return null;
}

/**
 * The out-of-hours spell an instant falls in: the schedule's owner and the opening that ends it
 * ('never' when nothing opens). Every instant of one closed stretch names the same spell, so the
 * out-of-hours reply is keyed on it and goes once a stretch. Null when open.
 */
export function outOfHoursSpell(schedule: Schedule, instant: number): string | null {
  if (isOpen(schedule, instant)) return null;
  const opening = nextOpening(schedule, instant);
  return `${schedule.owner}@${opening === null ? 'never' : new Date(opening).toISOString()}`;
}
