import { describe, expect, it } from 'vitest';
import { decodeTime } from 'ulid';
import { sortableId } from '#lib/sortable-ids.ts';

describe('sortable ids', () => {
  it('sort in the order they were made within one millisecond', () => {
    const at = Date.parse('2026-01-01T10:00:00.999Z');
    const ids = Array.from({ length: 50 }, () => sortableId(at));
    expect([...ids].sort()).toEqual(ids);
    expect(ids.every((id) => decodeTime(id) === at)).toBe(true);
  });

  it('keep an older time when asked for one after a newer', () => {
    sortableId(Date.parse('2026-06-01T00:00:00Z'));
    const old = sortableId(Date.parse('2020-01-01T00:00:00Z'));
    expect(decodeTime(old)).toBe(Date.parse('2020-01-01T00:00:00Z'));
  });

  it('sort in the order they were made within one millisecond when ids of other times come between', () => {
    // A burst of Telegram messages processed past their second all take its last millisecond
    // (connectors/telegram/inbound.ts messageTime); the files and events stored between them take now.
    const at = Date.parse('2026-01-01T10:00:01.999Z');
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) {
      ids.push(sortableId(at));
      sortableId(Date.parse('2026-01-01T10:00:02.000Z') + i);
    }
    expect([...ids].sort()).toEqual(ids);
    expect(ids.every((id) => decodeTime(id) === at)).toBe(true);
  });
});
