/** A scheduled message as the API and its realtime events answer it. */
import type { ScheduledMessage } from '#contracts/scheduled-messages.ts';
import type { ScheduledMessageItem } from '#db/scheduled-messages.ts';
import { wallClock } from '../business-hours/zoned-time.ts';
import { formatInZone } from './recurrence.ts';

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * The next occurrence on the zone's wall clock ('YYYY-MM-DD', 'HH:mm'): what the edit form shows.
 * Saved unchanged (with the same repetition), the schedule keeps its anchor (a monthly one on the
 * 31st stays on the 31st); anything else starts it again from the new date.
 */
export function nextWallClock(item: Pick<ScheduledMessageItem, 'nextAt' | 'anchorDate' | 'minutes' | 'timeZone'>): { date: string; time: string } {
  const { date, minutes } = item.nextAt ? wallClock(Date.parse(item.nextAt), item.timeZone) : { date: item.anchorDate, minutes: item.minutes };
  return { date, time: `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}` };
}

export function toScheduledMessage(item: ScheduledMessageItem): ScheduledMessage {
  return {
    id: item.id,
    contactId: item.contactId,
    serviceId: item.serviceId,
    text: item.text,
    file: item.file,
    repeat: item.repeat,
    ...nextWallClock(item),
    timeZone: item.timeZone,
    status: item.status,
    nextAt: item.nextAt,
    nextAtText: item.nextAt ? formatInZone(Date.parse(item.nextAt), item.timeZone) : null,
    sentCount: item.sentCount,
    user: item.user,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  };
}
