/**
 * Wall-clock time in an IANA zone through Intl alone (no time-zone library: ADR-0214). The server's own zone is never read: every function takes the zone.
 */

export interface WallClock {
  /** 'YYYY-MM-DD' in the zone. */
  date: string;
  /** 0 = Sunday. */
  weekday: number;
  /** Minutes since the zone's midnight (0..1439). */
  minutes: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

function partsOf(instant: number, zone: string) {
  const parts: Record<string, number> = {};
  for (const part of formatterOf(zone).formatToParts(instant)) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  return parts as { year: number; month: number; day: number; hour: number; minute: number; second: number };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** The zone's calendar date, weekday and minute of day at an instant. */
export function wallClock(instant: number, zone: string): WallClock {
  const p = partsOf(instant, zone);
  const date = `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}`;
  return { date, weekday: new Date(`${date}T00:00:00Z`).getUTCDay(), minutes: p.hour * 60 + p.minute };
}

/** How far the zone's wall clock is ahead of UTC at an instant, in milliseconds (whole seconds). */
function offsetAt(instant: number, zone: string): number {
  const p = partsOf(instant, zone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant the zone's wall clock reads `minutes` past midnight on `date`. A time skipped by a
 * DST change maps to the instant the clock jumps over it (02:30 on the day New York springs
 * forward is 03:00 EDT: a shift from 02:30 is open from then); a time that happens twice (the hour
 * repeated in autumn) maps to its first occurrence.
 */
export function instantOf(date: string, minutes: number, zone: string): number {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const asUtc = Date.UTC(year, month - 1, day, 0, minutes);
  // The offset half a day before and after the guess; earlier first, for the repeated hour.
  const before = asUtc - offsetAt(asUtc - 12 * 3600_000, zone);
  if (offsetAt(before, zone) === asUtc - before) return before;
  const after = asUtc - offsetAt(asUtc + 12 * 3600_000, zone);
  if (offsetAt(after, zone) === asUtc - after) return after;
  // In a gap: the jump lies between the two readings; find it to the minute.
  let [low, high] = after < before ? [after, before] : [before, after];
  const lateOffset = offsetAt(high, zone);
  while (high - low > 60_000) {
    const mid = low + Math.floor((high - low) / 120_000) * 60_000;
    if (offsetAt(mid, zone) === lateOffset) high = mid;
    else low = mid;
  }
  return high;
}

/** The next calendar date (UTC arithmetic on a date string: no zone involved). */
export const nextDate = (date: string, days = 1): string => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
