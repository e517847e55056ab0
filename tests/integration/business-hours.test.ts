/**
 * 'Horário de atendimento' over the shared runtime: an account that never saved its hours reads the
 * default ones; an admin saves them whole (stored in order, the account's state now computed in its
 * own zone); bad shifts, zones, dates and departments answer the catalogue's field texts and change
 * nothing; members read and cannot write.
 */
import { describe, expect, it } from 'vitest';
import { businessHoursTexts, defaultBusinessHours } from '#contracts/business-hours.ts';
import { errorTexts } from '#contracts/errors.ts';
import { call } from './api.ts';
import { inboxTeam } from './inbox-setup.ts';

const everyDay = (start: string, end: string) => [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start, end }));

/** Today's date in a zone, as the server reads it ('YYYY-MM-DD'). */
const todayIn = (timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());

describe('business hours', () => {
  it('reads the default hours until an admin saves them, then the saved ones, in order', async () => {
    const team = await inboxTeam();
    const first = await call('GET', '/business-hours', { token: team.member.token });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ ...defaultBusinessHours, saved: false, updatedAt: null });
    expect(typeof first.body.now.open).toBe('boolean');

    const department = await call('POST', '/departments', { token: team.owner.token, body: { name: 'Plantão' } });
    const saved = await call('PUT', '/business-hours', {
      token: team.admin.token,
      body: {
        timeZone: 'America/Manaus',
        shifts: [
          { weekday: 2, start: '13:00', end: '18:00' },
          { weekday: 1, start: '08:00', end: '12:00' },
          { weekday: 2, start: '08:00', end: '12:00' },
        ],
        holidays: [
          { date: '2026-12-25', name: 'Natal' },
          { date: '2026-11-20', name: 'Consciência Negra' },
        ],
        departments: [{ departmentId: department.body.id, shifts: everyDay('00:00', '24:00') }],
      },
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      timeZone: 'America/Manaus',
      shifts: [
        { weekday: 1, start: '08:00', end: '12:00' },
        { weekday: 2, start: '08:00', end: '12:00' },
        { weekday: 2, start: '13:00', end: '18:00' },
      ],
      holidays: [
        { date: '2026-11-20', name: 'Consciência Negra' },
        { date: '2026-12-25', name: 'Natal' },
      ],
      departments: [{ departmentId: department.body.id }],
      saved: true,
    });
    const again = await call('GET', '/business-hours', { token: team.member.token });
    const { now: _now, ...stored } = saved.body;
    expect(again.body).toMatchObject(stored);
    expect(again.body.updatedAt).toEqual(expect.any(String));
  });

  it("says whether the account is open now, in the account's zone", async () => {
    const team = await inboxTeam();
    const open = await call('PUT', '/business-hours', { token: team.admin.token, body: { timeZone: 'Asia/Tokyo', shifts: everyDay('00:00', '24:00') } });
    expect(open.body.now).toEqual({ open: true, opensAt: null });

    // Closed all day today in Tokyo (a holiday there): it opens at Tokyo's next midnight, 15:00 UTC.
    const today = todayIn('Asia/Tokyo');
    const closed = await call('PUT', '/business-hours', {
      token: team.admin.token,
      body: { timeZone: 'Asia/Tokyo', shifts: everyDay('00:00', '24:00'), holidays: [{ date: today, name: 'Feriado local' }] },
    });
    expect(closed.body.now.open).toBe(false);
    const tomorrow = new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    expect(closed.body.now.opensAt).toBe(new Date(Date.parse(`${tomorrow}T00:00:00Z`) - 9 * 3_600_000).toISOString());

    const never = await call('PUT', '/business-hours', { token: team.admin.token, body: { timeZone: 'America/Sao_Paulo', shifts: [] } });
    expect(never.body.now).toEqual({ open: false, opensAt: null });
  });

  it('refuses bad shifts, zones, dates and departments with field texts, and a member saving', async () => {
    const team = await inboxTeam();
    const before = await call('PUT', '/business-hours', { token: team.admin.token, body: { shifts: everyDay('09:00', '17:00') } });
    expect(before.status).toBe(200);

    const bad = await call('PUT', '/business-hours', {
      token: team.admin.token,
      body: {
        timeZone: 'America/Atlantida',
        shifts: [
          { weekday: 1, start: '22:00', end: '02:00' },
          { weekday: 3, start: '08:00', end: '12:00' },
          { weekday: 3, start: '11:00', end: '14:00' },
          { weekday: 4, start: '8h', end: '12:00' },
        ],
        holidays: [
          { date: '2026-02-30', name: 'Inexistente' },
          { date: '2026-12-25', name: 'Natal' },
          { date: '2026-12-25', name: 'Natal de novo' },
        ],
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(errorTexts.invalidParams);
    expect(bad.body.details).toEqual(
      expect.arrayContaining([
        { path: 'timeZone', message: businessHoursTexts.timeZone },
        { path: 'shifts.0.end', message: businessHoursTexts.shiftOrder },
        { path: 'shifts.2.start', message: businessHoursTexts.shiftOverlap },
        { path: 'shifts.3.start', message: businessHoursTexts.time },
        { path: 'holidays.0.date', message: businessHoursTexts.date },
        { path: 'holidays.2.date', message: businessHoursTexts.holidayRepeated },
      ]),
    );

    const archived = await call('POST', '/departments', { token: team.owner.token, body: { name: 'Antigo' } });
    await call('POST', `/departments/${archived.body.id}/archive`, { token: team.owner.token, body: { archive: true } });
    const departments = await call('PUT', '/business-hours', {
      token: team.admin.token,
      body: {
        shifts: [],
        departments: [
          { departmentId: '01JZZZZZZZZZZZZZZZZZZZZZZZ', shifts: [] },
          { departmentId: archived.body.id, shifts: [] },
        ],
      },
    });
    expect(departments.status).toBe(400);
    expect(departments.body.details).toEqual([
      { path: 'departments.0.departmentId', message: 'Departamento não encontrado' },
      { path: 'departments.1.departmentId', message: 'Departamento não encontrado' },
    ]);

    const member = await call('PUT', '/business-hours', { token: team.member.token, body: { shifts: [] } });
    expect(member.status).toBe(403);
    // Nothing refused was stored.
    const after = await call('GET', '/business-hours', { token: team.member.token });
    expect(after.body.shifts).toEqual(everyDay('09:00', '17:00'));
    expect(after.body.timeZone).toBe('America/Sao_Paulo');
  });
});
