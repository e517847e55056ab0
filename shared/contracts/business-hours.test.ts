import { describe, expect, it } from 'vitest';
import { brazilNationalHolidays, easterSunday } from './brazil-holidays.ts';
import { businessHoursSchema, businessHoursTexts } from './business-hours.ts';

const messages = (input: unknown) => {
  const result = businessHoursSchema.safeParse(input);
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('business hours schema', () => {
  it('takes several shifts a day, one ending at 24:00, and defaults the zone to São Paulo', () => {
    const hours = businessHoursSchema.parse({
      shifts: [
        { weekday: 1, start: '08:00', end: '12:00' },
        { weekday: 1, start: '12:00', end: '24:00' },
      ],
    });
    expect(hours.timeZone).toBe('America/Sao_Paulo');
    expect(hours.holidays).toEqual([]);
  });

  it('refuses a shift crossing midnight, saying to split it, in pt-BR', () => {
    expect(messages({ shifts: [{ weekday: 5, start: '22:00', end: '02:00' }] })).toEqual([`shifts.0.end: ${businessHoursTexts.shiftOrder}`]);
  });

  it('refuses overlapping shifts of one day but not the same hours on another day', () => {
    const overlapping = [
      { weekday: 2, start: '08:00', end: '12:00' },
      { weekday: 2, start: '11:00', end: '14:00' },
    ];
    expect(messages({ shifts: overlapping })).toEqual([`shifts.1.start: ${businessHoursTexts.shiftOverlap}`]);
    expect(messages({ shifts: [overlapping[0], { ...overlapping[1], weekday: 3 }] })).toEqual([]);
  });

  it('refuses bad times, weekdays, zones, dates and a repeated holiday', () => {
    expect(messages({ shifts: [{ weekday: 7, start: '8:00', end: '24:30' }] })).toEqual([
      `shifts.0.weekday: ${businessHoursTexts.weekday}`,
      `shifts.0.start: ${businessHoursTexts.time}`,
      `shifts.0.end: ${businessHoursTexts.time}`,
    ]);
    expect(messages({ timeZone: 'America/Sao Paulo', shifts: [] })).toEqual([`timeZone: ${businessHoursTexts.timeZone}`]);
    expect(
      messages({
        shifts: [],
        holidays: [
          { date: '2026-02-30', name: 'Nunca' },
          { date: '2026-12-25', name: 'Natal' },
          { date: '2026-12-25', name: 'Natal de novo' },
        ],
      }),
    ).toEqual([`holidays.0.date: ${businessHoursTexts.date}`, `holidays.2.date: ${businessHoursTexts.holidayRepeated}`]);
  });

  it('refuses a department given two schedules', () => {
    const department = { departmentId: 'd1', shifts: [] };
    expect(messages({ shifts: [], departments: [department, department] })).toEqual([`departments.1.departmentId: ${businessHoursTexts.departmentRepeated}`]);
  });
});

describe('Brazil’s national holidays', () => {
  it('computes Easter Sunday', () => {
    const easters = [2000, 2019, 2024, 2025, 2026, 2027, 2038].map((y) => easterSunday(y).toISOString().slice(0, 10));
    expect(easters).toEqual(['2000-04-23', '2019-04-21', '2024-03-31', '2025-04-20', '2026-04-05', '2027-03-28', '2038-04-25']);
  });

  it('lists 2026 in date order, with Carnaval and Corpus Christi as pontos facultativos', () => {
    expect(brazilNationalHolidays(2026).map((h) => `${h.date} ${h.kind} ${h.name}`)).toEqual([
      '2026-01-01 feriado Confraternização Universal',
      '2026-02-16 ponto_facultativo Carnaval (segunda-feira)',
      '2026-02-17 ponto_facultativo Carnaval (terça-feira)',
      '2026-04-03 feriado Sexta-feira Santa',
      '2026-04-21 feriado Tiradentes',
      '2026-05-01 feriado Dia do Trabalho',
      '2026-06-04 ponto_facultativo Corpus Christi',
      '2026-09-07 feriado Independência do Brasil',
      '2026-10-12 feriado Nossa Senhora Aparecida',
      '2026-11-02 feriado Finados',
      '2026-11-15 feriado Proclamação da República',
      '2026-11-20 feriado Dia Nacional de Zumbi e da Consciência Negra',
      '2026-12-25 feriado Natal',
    ]);
  });

  it('has 20 de novembro only from 2024, and moves the Easter-based days with Easter', () => {
    expect(brazilNationalHolidays(2023).some((h) => h.date === '2023-11-20')).toBe(false);
    expect(brazilNationalHolidays(2024).some((h) => h.date === '2024-11-20')).toBe(true);
    const in2025 = Object.fromEntries(brazilNationalHolidays(2025).map((h) => [h.name, h.date]));
    expect([in2025['Carnaval (terça-feira)'], in2025['Sexta-feira Santa'], in2025['Corpus Christi']]).toEqual(['2025-03-04', '2025-04-18', '2025-06-19']);
  });

  it('gives dates the business-hours schema takes as holidays', () => {
    const holidays = brazilNationalHolidays(2027).map(({ date, name }) => ({ date, name }));
    expect(businessHoursSchema.safeParse({ shifts: [], holidays }).success).toBe(true);
  });
});
