import { describe, expect, it } from 'vitest';
import { csvName, ratingRows } from './report-columns.ts';
import { toCsv } from './report-csv.ts';
import { formatChange, formatReportDate, formatReportDuration, formatScore } from './report-format.ts';
import { periodError, presetPeriod, todayIn } from './report-period.ts';

describe('report figures in pt-BR', () => {
  it('writes durations with their two largest units', () => {
    expect([null, 400, 45_000, 60_000, 90_000, 3_600_000, 7_500_000, 86_400_000, 97_200_000].map(formatReportDuration)).toEqual([
      '—',
      '0 s',
      '45 s',
      '1 min',
      '1 min 30 s',
      '1 h',
      '2 h 05 min',
      '1 d',
      '1 d 3 h',
    ]);
  });

  it('writes the account’s dates as dd/MM/yyyy, scores with a comma and the change against the previous period', () => {
    expect(formatReportDate('2026-03-08')).toBe('08/03/2026');
    expect(formatScore(4.5)).toBe('4,5');
    expect([formatChange(12, 10), formatChange(5, 10), formatChange(10, 10), formatChange(3, 0), formatChange(null, 2)]).toEqual([
      '+20%',
      '−50%',
      'igual',
      null,
      null,
    ]);
  });
});

describe('report CSV', () => {
  it('separates by semicolons with decimal commas, quotes what needs it and defuses formulas', () => {
    const csv = toCsv(
      ['Atendente', 'Avaliação média', 'Abertas'],
      [
        ['Ana; "Aninha"', 4.25, 3],
        ['=HYPERLINK("x")', null, 0],
      ],
    );
    expect(csv).toBe('\uFEFFAtendente;Avaliação média;Abertas\r\n"Ana; ""Aninha""";4,25;3\r\n"\'=HYPERLINK(""x"")";;0\r\n');
  });

  it('names the file after the table and the period; shares ratings in percent', () => {
    expect(csvName('atendentes', '2026-11-01', '2026-11-27')).toBe('relatorio-atendentes-2026-11-01-a-2026-11-27.csv');
    expect(ratingRows([1, 0, 0, 1, 2]).map((r) => r.share)).toEqual([25, 0, 0, 25, 50]);
  });
});

describe('report periods', () => {
  it('ends the presets today and checks a period typed in', () => {
    expect(presetPeriod('7', '2026-03-02')).toEqual({ from: '2026-02-24', to: '2026-03-02' });
    expect(presetPeriod('month', '2026-03-02')).toEqual({ from: '2026-03-01', to: '2026-03-02' });
    expect(todayIn('America/Sao_Paulo', new Date('2026-03-02T02:00:00Z'))).toBe('2026-03-01');
    expect(periodError({ from: '2026-03-02', to: '2026-03-01' })).toBe('A data final deve ser igual ou posterior à data inicial');
    expect(periodError({ from: '2025-01-01', to: '2026-03-01' })).toBe('Escolha um período de até 366 dias');
    expect(periodError({ from: '', to: '2026-03-01' })).toBe('Informe as duas datas');
    expect(periodError({ from: '2025-03-02', to: '2026-03-02' })).toBeNull();
  });
});
