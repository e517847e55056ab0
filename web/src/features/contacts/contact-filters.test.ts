import { describe, expect, it } from 'vitest';
import { contactWhere, emptyContactFilters, filtersOfWhere, hasFilters, type ContactFilters } from './contact-filters.ts';

describe('the contacts filter as a list query where', () => {
  it('is empty with no filter (the first page the shell asks for stays the same)', () => {
    expect(contactWhere(emptyContactFilters)).toEqual({});
    expect(hasFilters(emptyContactFilters)).toBe(false);
  });

  it('writes each field in the list query language and reads it back', () => {
    const filters: ContactFilters = {
      name: ' 50% Ana_ ',
      email: 'loja',
      phone: '(11) 9876',
      tagId: 't1',
      departmentId: 'd1',
      serviceId: 's1',
      activeAfter: '2026-03-01',
      activeBefore: '2026-04-01',
      archived: 'no',
      optedOut: 'yes',
    };
    const where = contactWhere(filters);
    expect(where).toEqual({
      name: { like: '%50\\% Ana\\_%' },
      'data.email': { like: '%loja%' },
      'data.phoneNumber': { like: '%119876%' },
      tags: 't1',
      departmentId: 'd1',
      serviceId: 's1',
      lastMessageAt: { gte: new Date('2026-03-01T00:00:00').toISOString(), lt: new Date('2026-04-01T00:00:00').toISOString() },
      archivedAt: null,
      optedOutAt: { ne: null },
    });
    expect(filtersOfWhere(JSON.parse(JSON.stringify(where)))).toEqual({ ...filters, name: '50% Ana_', phone: '119876' });
  });

  it('reads what it cannot show as empty fields', () => {
    expect(filtersOfWhere({ name: 'exato', or: [{ tags: 't1' }], lastMessageAt: { gt: 5 } })).toEqual(emptyContactFilters);
  });
});
