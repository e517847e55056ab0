import { describe, expect, it } from 'vitest';
import { businessHoursTexts, defaultBusinessHours } from '#contracts/business-hours.ts';
import { checkForm, rowErrors, toForm, toPayload, withNationalHolidays, withoutRow } from './hours-form.ts';

describe('the business hours form', () => {
  it('types midnight as 00:00 and sends it as 24:00, and round-trips the rest', () => {
    const hours = { ...defaultBusinessHours, shifts: [{ weekday: 5, start: '18:00', end: '24:00' }] };
    const form = toForm(hours);
    expect(form.shifts.map((s) => [s.start, s.end])).toEqual([['18:00', '00:00']]);
    expect(toPayload(form)).toEqual(hours);
    expect(toPayload(toForm(defaultBusinessHours))).toEqual(defaultBusinessHours);
  });

  it("keys the schema's messages by the rows they are about", () => {
    const form = toForm({ ...defaultBusinessHours, shifts: [{ weekday: 1, start: '12:00', end: '08:00' }], holidays: [{ date: '2026-02-30', name: 'x' }] });
    const checked = checkForm(form);
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    // Keyed by the rows, so they stay on them when rows move before the next save.
    expect(checked.errors[`${form.shifts[0]!.key}.end`]).toBe(businessHoursTexts.shiftOrder);
    expect(checked.errors[`${form.holidays[0]!.key}.date`]).toBe(businessHoursTexts.date);
    expect(withoutRow(checked.errors, form.shifts[0]!.key)).toEqual({ [`${form.holidays[0]!.key}.date`]: businessHoursTexts.date });
  });

  it("puts the server's messages on the rows its paths name, departments' shifts included", () => {
    const form = toForm({
      ...defaultBusinessHours,
      departments: [{ departmentId: 'D1', shifts: [{ weekday: 2, start: '08:00', end: '12:00' }] }],
    });
    const errors = rowErrors(form, { 'departments.0.departmentId': 'Departamento não encontrado', 'departments.0.shifts.0.start': 'x', timeZone: 'y' });
    expect(errors).toEqual({
      [`${form.departments[0]!.key}.departmentId`]: 'Departamento não encontrado',
      [`${form.departments[0]!.shifts[0]!.key}.start`]: 'x',
      timeZone: 'y',
    });
  });

  it("adds the national holidays still ahead, this year's and next year's, once", () => {
    const first = withNationalHolidays([], '2026-11-27', false);
    expect(first.rows.map((r) => r.date)).toEqual([
      '2026-12-25',
      '2027-01-01',
      '2027-03-26',
      '2027-04-21',
      '2027-05-01',
      '2027-09-07',
      '2027-10-12',
      '2027-11-02',
      '2027-11-15',
      '2027-11-20',
      '2027-12-25',
    ]);
    expect(withNationalHolidays(first.rows, '2026-11-27', false).added).toBe(0);
    const optional = withNationalHolidays(first.rows, '2026-11-27', true);
    expect(optional.rows.filter((r) => r.name.startsWith('Carnaval') || r.name === 'Corpus Christi').map((r) => r.date)).toEqual([
      '2027-02-08',
      '2027-02-09',
      '2027-05-27',
    ]);
    expect(optional.added).toBe(3);
  });
});
