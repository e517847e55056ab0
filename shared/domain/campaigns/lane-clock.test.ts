import { describe, expect, it } from 'vitest';
import { defaultBusinessHours } from '#contracts/business-hours.ts';
import type { CampaignPace } from '#contracts/campaigns.ts';
import { campaignSchedule, countSend, drawGapMs, estimateLaneFinish, nextSendTime } from './lane-clock.ts';

// São Paulo is UTC−3 all year: 09:00 there is 12:00Z.
const sp = (local: string) => Date.parse(`${local}-03:00`);
const iso = (ms: number | null) => (ms === null ? null : new Date(ms - 3 * 3600_000).toISOString().slice(0, 16));

const hours = { ...defaultBusinessHours, holidays: [{ date: '2026-12-25', name: 'Natal' }] };
// Weekdays 09:00–17:00 only.
const schedule = campaignSchedule({ kind: 'hours', start: '09:00', end: '17:00', weekdays: [1, 2, 3, 4, 5] }, hours);
const pace: CampaignPace = { minGapSeconds: 20, maxGapSeconds: 60, dailyLimit: 3, dailyNewChats: 1 };

describe('when a lane may send next', () => {
  it('sends at once inside the window with room left in the day', () => {
    expect(iso(nextSendTime(schedule, pace, null, sp('2026-12-01T10:00:00'), false))).toBe('2026-12-01T10:00');
  });

  it('waits for the window to open: the morning, and Monday after a weekend', () => {
    expect(iso(nextSendTime(schedule, pace, null, sp('2026-12-01T07:30:00'), false))).toBe('2026-12-01T09:00');
    // Friday 17:00 is past the window; Saturday and Sunday are not in it.
    expect(iso(nextSendTime(schedule, pace, null, sp('2026-12-04T17:00:00'), false))).toBe('2026-12-07T09:00');
  });

  it('skips the account holidays', () => {
    expect(iso(nextSendTime(schedule, pace, null, sp('2026-12-24T18:00:00'), false))).toBe('2026-12-28T09:00');
  });

  it('moves to the next day once the daily limit is reached, and counts days in the account zone', () => {
    let counts = null;
    for (const t of ['10:00', '10:01', '10:02']) counts = countSend(counts, sp(`2026-12-01T${t}:00`), 'America/Sao_Paulo', false);
    expect(counts).toEqual({ day: '2026-12-01', sends: 3, newChats: 0 });
    expect(iso(nextSendTime(schedule, pace, counts, sp('2026-12-01T10:03:00'), false))).toBe('2026-12-02T09:00');
    // 22:00 in São Paulo is already the next day in UTC, but still the same day for the business.
    expect(countSend(counts, sp('2026-12-01T22:00:00'), 'America/Sao_Paulo', false).day).toBe('2026-12-01');
  });

  it('holds first messages to the new-chat allowance while replies to known contacts still go', () => {
    const counts = countSend(null, sp('2026-12-01T10:00:00'), 'America/Sao_Paulo', true);
    expect(iso(nextSendTime(schedule, pace, counts, sp('2026-12-01T10:01:00'), true))).toBe('2026-12-02T09:00');
    expect(iso(nextSendTime(schedule, pace, counts, sp('2026-12-01T10:01:00'), false))).toBe('2026-12-01T10:01');
  });

  it('never, when no new chats are allowed or the window never opens', () => {
    expect(nextSendTime(schedule, { ...pace, dailyNewChats: 0 }, null, sp('2026-12-01T10:00:00'), true)).toBeNull();
    const closed = { ...schedule, shifts: [] };
    expect(nextSendTime(closed, pace, null, sp('2026-12-01T10:00:00'), false)).toBeNull();
  });

  it('uses the business hours when the campaign says so (Saturday morning included by default)', () => {
    const business = campaignSchedule({ kind: 'business-hours' }, hours);
    expect(iso(nextSendTime(business, pace, null, sp('2026-12-05T11:00:00'), false))).toBe('2026-12-05T11:00');
    expect(iso(nextSendTime(business, pace, null, sp('2026-12-05T12:30:00'), false))).toBe('2026-12-07T08:00');
  });
});

describe('the gap between two sends', () => {
  it('is drawn in [min, max] seconds', () => {
    expect(drawGapMs(pace, () => 0)).toBe(20_000);
    expect(drawGapMs(pace, () => 0.999_999)).toBe(60_000);
    expect(drawGapMs(pace, () => 0.5)).toBe(40_000);
  });
});

describe('the estimated finish', () => {
  it('walks the same rules: known contacts first, then first messages at the new-chat allowance', () => {
    const start = sp('2026-12-01T10:00:00');
    expect(estimateLaneFinish(schedule, pace, { known: 0, fresh: 0 }, start)).toBe(start);
    // 3 a day: Tue 3, Wed 3 → the 6th goes Wednesday, 2 mean gaps after 09:00.
    expect(iso(estimateLaneFinish(schedule, pace, { known: 6, fresh: 0 }, start))).toBe('2026-12-02T09:01');
    // One first message a day: 2 known and 1 fresh on Tuesday; the second fresh Wednesday 09:00.
    expect(iso(estimateLaneFinish(schedule, pace, { known: 2, fresh: 2 }, start))).toBe('2026-12-02T09:00');
  });

  it('is null when first messages can never go', () => {
    expect(estimateLaneFinish(schedule, { ...pace, dailyNewChats: 0 }, { known: 1, fresh: 1 }, sp('2026-12-01T10:00:00'))).toBeNull();
  });

  it('at the defaults, a thousand known contacts on one number take about five working days', () => {
    const defaults: CampaignPace = { minGapSeconds: 20, maxGapSeconds: 60, dailyLimit: 200, dailyNewChats: 30 };
    const finish = estimateLaneFinish(schedule, defaults, { known: 1000, fresh: 0 }, sp('2026-12-01T09:00:00'));
    // 200 a day × 40 s = 2 h 13 min a day: Tue–Fri and Mon (4 Dec is Friday; 5–6 are the weekend).
    expect(iso(finish)?.slice(0, 10)).toBe('2026-12-07');
  });
});
