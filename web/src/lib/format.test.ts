import { describe, expect, it } from 'vitest';
import { formatDuration, formatMessageTime, formatPresence } from './format.ts';
import { pagerItems } from '#web/components/ui/pagination.tsx';

describe('formats of the spec', () => {
  const now = new Date(2025, 5, 8, 15, 30, 0);
  it('writes message times as "Hoje as HH:mm:ss" today and dd/MM/yyyy HH:mm otherwise', () => {
    expect(formatMessageTime(new Date(2025, 5, 8, 9, 5, 7).toISOString(), now)).toBe('Hoje as 09:05:07');
    expect(formatMessageTime(new Date(2025, 5, 7, 23, 59, 0).toISOString(), now)).toBe('07/06/2025 23:59');
  });
  it('says "Visto recentemente" under an hour, then hours, then days', () => {
    expect(formatPresence(true, null, now)).toBe('Online');
    expect(formatPresence(false, new Date(now.getTime() - 20 * 60_000).toISOString(), now)).toBe('Visto recentemente');
    expect(formatPresence(false, new Date(now.getTime() - 3 * 3_600_000).toISOString(), now)).toBe('Visto há 3 horas');
    expect(formatPresence(false, new Date(now.getTime() - 50 * 3_600_000).toISOString(), now)).toBe('Visto há 2 dias');
  });
  it('times a recording as mm:ss', () => {
    expect(formatDuration(65_400)).toBe('01:05');
  });
  it('shows up to 5 page numbers with first, last and ellipses', () => {
    expect(pagerItems(0, 3)).toEqual([0, 1, 2]);
    expect(pagerItems(10, 20)).toEqual([0, 'ellipsis-start', 8, 9, 10, 11, 12, 'ellipsis-end', 19]);
    expect(pagerItems(0, 20)).toEqual([0, 1, 2, 3, 4, 'ellipsis-end', 19]);
    expect(pagerItems(19, 20)).toEqual([0, 'ellipsis-start', 15, 16, 17, 18, 19]);
  });
});
