import { describe, expect, it } from 'vitest';
import type { Contact } from '#contracts/contacts.ts';
import { emptyInboxFilters, matchesInboxFilters, type InboxFilters } from './get-inbox-contacts.ts';
import { inboxFiltersFromParams, inboxFiltersToParams } from './inbox-filter-params.ts';

describe('the inbox filters in the address', () => {
  it('open on every conversation that is open, and write nothing for the defaults', () => {
    const filters = inboxFiltersFromParams(new URLSearchParams(''), 'U1');
    expect(filters).toEqual({ ...emptyInboxFilters, status: 'open', me: 'U1' });
    expect(inboxFiltersToParams(filters).toString()).toBe('');
  });

  it('round-trip every filter, with `status=all` for every status', () => {
    const filters: InboxFilters = {
      tab: 'unassigned',
      status: '',
      search: 'joana',
      serviceId: 'S1',
      serviceType: 'telegram',
      departmentId: 'none',
      tagId: 'T1',
      archived: true,
      me: 'U1',
    };
    const params = inboxFiltersToParams(filters);
    expect(params.toString()).toBe('tab=unassigned&status=all&q=joana&connection=S1&type=telegram&department=none&tag=T1&archived=1');
    expect(inboxFiltersFromParams(params, 'U1')).toEqual(filters);
  });

  it('read every connection type, WhatsApp (API oficial) too', () => {
    const types = ['whatsapp', 'telegram', 'whatsapp_cloud'].map((type) => inboxFiltersFromParams(new URLSearchParams(`type=${type}`), 'U1').serviceType);
    expect(types).toEqual(['whatsapp', 'telegram', 'whatsapp_cloud']);
  });

  it('fall back to the defaults for values it does not know', () => {
    const filters = inboxFiltersFromParams(new URLSearchParams('tab=theirs&status=closed&type=fax&archived=yes'), 'U1');
    expect([filters.tab, filters.status, filters.serviceType, filters.archived]).toEqual(['all', 'open', '', false]);
  });
});

describe('a realtime contact in a cached list', () => {
  const contact = (extra: Partial<Contact>) =>
    ({ name: 'Joana', data: {}, archivedAt: null, status: 'open', userId: null, departmentId: null, tags: [], ...extra }) as unknown as Contact;
  const filters = (extra: Partial<InboxFilters>): InboxFilters => ({ ...emptyInboxFilters, me: 'U1', ...extra });

  it('belongs to a tab by who handles it', () => {
    expect(matchesInboxFilters(contact({ userId: 'U1' }), filters({ tab: 'mine' }))).toBe(true);
    expect(matchesInboxFilters(contact({ userId: 'U2' }), filters({ tab: 'mine' }))).toBe(false);
    expect(matchesInboxFilters(contact({ userId: null }), filters({ tab: 'unassigned' }))).toBe(true);
    expect(matchesInboxFilters(contact({ userId: 'U2' }), filters({ tab: 'unassigned' }))).toBe(false);
    expect(matchesInboxFilters(contact({ userId: 'U2' }), filters({ tab: 'all' }))).toBe(true);
  });

  it('belongs by status, department (or none) and tag', () => {
    expect(matchesInboxFilters(contact({ status: 'resolved' }), filters({ status: 'open' }))).toBe(false);
    expect(matchesInboxFilters(contact({ status: 'resolved' }), filters({ status: '' }))).toBe(true);
    expect(matchesInboxFilters(contact({ departmentId: 'D1' }), filters({ departmentId: 'D1' }))).toBe(true);
    expect(matchesInboxFilters(contact({ departmentId: 'D2' }), filters({ departmentId: 'D1' }))).toBe(false);
    expect(matchesInboxFilters(contact({ departmentId: null }), filters({ departmentId: 'none' }))).toBe(true);
    expect(matchesInboxFilters(contact({ departmentId: 'D1' }), filters({ departmentId: 'none' }))).toBe(false);
    expect(matchesInboxFilters(contact({ tags: ['T1', 'T2'] }), filters({ tagId: 'T2' }))).toBe(true);
    expect(matchesInboxFilters(contact({ tags: ['T1'] }), filters({ tagId: 'T2' }))).toBe(false);
  });
});
