/**
 * The rhythm of a campaign's lane (one connection's share of a campaign, ADR-0227): when
 * its next message may go, given the sending window, the day's limits and a random gap; and the
 * estimated finish the screen shows before a campaign starts, from the same rules run on a clock.
 * Days are the account's (the window's zone), as its owner counts them.
 */
import type { CampaignPace, CampaignWindow } from '#contracts/campaigns.ts';
import type { BusinessHours } from '#contracts/business-hours.ts';
import { nextOpening, type Schedule, scheduleFor } from '../business-hours/business-hours.ts';
import { instantOf, nextDate, wallClock } from '../business-hours/zoned-time.ts';

/** What a lane sent on one of the account's days. */
export interface LaneDay {
  /** 'YYYY-MM-DD' in the window's zone. */
  day: string;
  sends: number;
  /** Of them, first messages to people who never wrote to the number. */
  newChats: number;
}

/** The schedule a campaign sends inside: the account's business hours, or its own hours on its weekdays (in the account's zone). */
export function campaignSchedule(window: CampaignWindow, hours: BusinessHours): Schedule {
  if (window.kind === 'business-hours') return scheduleFor(hours, null);
  return {
    owner: 'campaign',
    timeZone: hours.timeZone,
    shifts: window.weekdays.map((weekday) => ({ weekday, start: window.start, end: window.end })),
    holidays: hours.holidays.map((h) => h.date),
  };
}

const emptyDay = (day: string): LaneDay => ({ day, sends: 0, newChats: 0 });

/** The lane's counts for the day of `at` (a new day starts at zero). */
export function dayOf(counts: LaneDay | null, at: number, timeZone: string): LaneDay {
  const day = wallClock(at, timeZone).date;
  return counts?.day === day ? counts : emptyDay(day);
}

/** The counts after a send at `at`. */
export function countSend(counts: LaneDay | null, at: number, timeZone: string, newChat: boolean): LaneDay {
  const today = dayOf(counts, at, timeZone);
  return { day: today.day, sends: today.sends + 1, newChats: today.newChats + (newChat ? 1 : 0) };
}

/** Whether the pace could ever send this recipient (a first message needs a new-chat allowance). */
export const everSendable = (pace: CampaignPace, newChat: boolean): boolean => !newChat || pace.dailyNewChats > 0;

/**
 * The first instant at or after `at` when the lane may send (to a person who never wrote, when
 * `newChat`): inside the window and under the day's limits; a day that is full moves to the next
 * day's first opening. Null when that never comes (the window never opens, or no new chats allowed).
 */
export function nextSendTime(schedule: Schedule, pace: CampaignPace, counts: LaneDay | null, at: number, newChat: boolean): number | null {
  if (!everSendable(pace, newChat)) return null;
  let t = at;
  // A year of days at most: past that, the window does not open (nextOpening also gives up).
  for (let i = 0; i < 400; i++) {
    const open = nextOpening(schedule, t);
    if (open === null) return null;
    const today = dayOf(counts, open, schedule.timeZone);
    if (today.sends < pace.dailyLimit && (!newChat || today.newChats < pace.dailyNewChats)) return open;
    t = instantOf(nextDate(today.day), 0, schedule.timeZone);
  }
  return null;
}

/** A gap between two sends of a lane, drawn uniformly in the pace's [min, max] seconds. */
export function drawGapMs(pace: CampaignPace, random: () => number = Math.random): number {
  return Math.round((pace.minGapSeconds + random() * (pace.maxGapSeconds - pace.minGapSeconds)) * 1000);
}

/** A lane's recipients for the estimate: those who wrote before go first (ADR-0227), then first messages. */
export interface LaneLoad {
  known: number;
  fresh: number;
}

/**
 * When a lane would send its last message if it started at `start`, each gap the pace's mean;
 * null when some of its recipients could never be sent (first messages with no new-chat
 * allowance are skipped instead, so they are left out of the load by the caller) or the window
 * never opens. Zero recipients finish at the start.
 */
export function estimateLaneFinish(schedule: Schedule, pace: CampaignPace, load: LaneLoad, start: number): number | null {
  const meanGap = ((pace.minGapSeconds + pace.maxGapSeconds) / 2) * 1000;
  let counts: LaneDay | null = null;
  let t = start;
  let last = start;
  for (let i = 0; i < load.known + load.fresh; i++) {
    const newChat = i >= load.known;
    const at = nextSendTime(schedule, pace, counts, t, newChat);
    if (at === null) return null;
    counts = countSend(counts, at, schedule.timeZone, newChat);
    last = at;
    t = at + meanGap;
  }
  return last;
}
