/**
 * Brazil's national holidays of a year, offered by the business-hours form (docs/conversation-lifecycle.md#business-hours).
 * 'feriado': closed by federal law (Lei 662/1949, Lei 6.802/1980, Lei 14.759/2023 for 20 de novembro
 * from 2024; Sexta-feira Santa as the federal calendar lists it). 'ponto_facultativo': Carnaval
 * (Monday and Tuesday) and Corpus Christi are not holidays by federal law but most businesses
 * close; they are listed so the form can offer them, unticked. Quarta-feira de Cinzas (closed until
 * 14:00) is left out: a holiday here closes the whole day. State and city holidays are the account's to add.
 */
export type HolidayKind = 'feriado' | 'ponto_facultativo';

export interface NationalHoliday {
  date: string;
  name: string;
  kind: HolidayKind;
}

/** Easter Sunday of a Gregorian year (the anonymous Meeus/Jones/Butcher computus), as UTC midnight. */
export function easterSunday(year: number): Date {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return new Date(Date.UTC(year, month - 1, day));
}

const dayMs = 24 * 60 * 60 * 1000;
const isoDate = (date: Date) => date.toISOString().slice(0, 10);
const pad = (n: number) => String(n).padStart(2, '0');

/** The year's national holidays and pontos facultativos, in date order. */
export function brazilNationalHolidays(year: number): NationalHoliday[] {
  const easter = easterSunday(year).getTime();
  const fromEaster = (days: number) => isoDate(new Date(easter + days * dayMs));
  const fixed = (month: number, day: number) => `${year}-${pad(month)}-${pad(day)}`;
  const holidays: NationalHoliday[] = [
    { date: fixed(1, 1), name: 'Confraternização Universal', kind: 'feriado' },
    { date: fromEaster(-48), name: 'Carnaval (segunda-feira)', kind: 'ponto_facultativo' },
    { date: fromEaster(-47), name: 'Carnaval (terça-feira)', kind: 'ponto_facultativo' },
    { date: fromEaster(-2), name: 'Sexta-feira Santa', kind: 'feriado' },
    { date: fixed(4, 21), name: 'Tiradentes', kind: 'feriado' },
    { date: fixed(5, 1), name: 'Dia do Trabalho', kind: 'feriado' },
    { date: fromEaster(60), name: 'Corpus Christi', kind: 'ponto_facultativo' },
    { date: fixed(9, 7), name: 'Independência do Brasil', kind: 'feriado' },
    { date: fixed(10, 12), name: 'Nossa Senhora Aparecida', kind: 'feriado' },
    { date: fixed(11, 2), name: 'Finados', kind: 'feriado' },
    { date: fixed(11, 15), name: 'Proclamação da República', kind: 'feriado' },
    ...(year >= 2024 ? [{ date: fixed(11, 20), name: 'Dia Nacional de Zumbi e da Consciência Negra', kind: 'feriado' as const }] : []),
    { date: fixed(12, 25), name: 'Natal', kind: 'feriado' },
  ];
  return holidays.sort((x, y) => x.date.localeCompare(y.date));
}
