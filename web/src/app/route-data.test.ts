import { describe, expect, it } from 'vitest';
import { contactsQuery, emptyContactFilters } from '#web/features/contacts/api/get-contacts.ts';
import { inboxContactIncludes, inboxPageSize } from '#web/features/inbox/api/get-inbox-contacts.ts';
import { defaultPerPage } from '#contracts/list-query.ts';
import { firstRequestPaths } from './route-data.ts';

const queryOf = (path: string) => {
  const url = new URL(path, 'http://local');
  expect(url.pathname).toBe('/contacts');
  return JSON.parse(url.searchParams.get('query')!) as Record<string, unknown>;
};

describe('the first request paths the build writes into the shell', () => {
  it("/inbox: the list with an address's default filters (open conversations, every tab), its page size and includes", () => {
    expect(queryOf(firstRequestPaths()['/inbox']!)).toEqual({
      where: { archivedAt: null, status: 'open' },
      include: inboxContactIncludes,
      perPage: inboxPageSize,
      withCount: true,
    });
  });

  it("/contacts: the table's first page, no filter, the default page size", () => {
    expect(queryOf(firstRequestPaths()['/contacts']!)).toEqual(contactsQuery(emptyContactFilters, 0, defaultPerPage));
  });

  it('names no other page', () => {
    expect(Object.keys(firstRequestPaths()).sort()).toEqual(['/contacts', '/inbox']);
  });
});
