import { describe, expect, it } from 'vitest';
import { connectionViewer, eventsFor, type BatchAudience } from '#domain/realtime/audience.ts';
import type { AddressedEvent } from '#domain/realtime/events.ts';

// Only the addressing matters here: the payload is a label the assertions read back.
const event = (label: string, conversation?: AddressedEvent['conversation']): AddressedEvent =>
  ({ accountId: 'A', payload: { event: label }, ...(conversation ? { conversation } : {}) }) as unknown as AddressedEvent;
const labels = (events: AddressedEvent[]) => events.map((e) => e.payload.event as string);

const audience = (membersSeeAll = false): BatchAudience => ({
  account: {
    membersSeeAll,
    departments: [
      { id: 'finance', userIds: ['me'] },
      { id: 'sales', userIds: ['ana'] },
    ],
  },
  conversations: new Map([
    ['mine', { userId: 'me', departmentId: 'sales' }],
    ['anas', { userId: 'ana', departmentId: null }],
    ['finance-queue', { userId: null, departmentId: 'finance' }],
    ['sales-queue', { userId: null, departmentId: 'sales' }],
    ['general', { userId: null, departmentId: null }],
    ['gone', undefined],
  ]),
});

const batch = [
  event('account.UPDATED'),
  event('service.UPDATED'),
  event('user.UPDATED'),
  ...['mine', 'anas', 'finance-queue', 'sales-queue', 'general', 'gone'].map((id) => event(`note of ${id}`, { contactId: id })),
  event('contact of anas', { contactId: 'anas', assignments: [{ userId: 'ana', departmentId: null }] }),
  event('contact of sales-queue', { contactId: 'sales-queue', assignments: [{ userId: null, departmentId: 'sales' }] }),
  // Taken from the member's department queue by Ana: the member saw it before, so gets this last update.
  event('contact taken by ana', {
    contactId: 'x',
    assignments: [
      { userId: 'ana', departmentId: 'finance' },
      { userId: null, departmentId: 'finance' },
    ],
  }),
  // Transferred from Ana to the member: seen after.
  event('contact given to me', {
    contactId: 'y',
    assignments: [
      { userId: 'me', departmentId: null },
      { userId: 'ana', departmentId: null },
    ],
  }),
];

describe('realtime events follow conversation visibility', () => {
  it("a member's socket gets the account's events and only the conversations the member sees, in order", () => {
    const a = audience();
    const member = connectionViewer({ userId: 'me', isAdmin: false }, a);
    expect(member).toEqual({ userId: 'me', seesAll: false, departmentIds: ['finance'] });
    expect(labels(eventsFor(member, batch, a))).toEqual([
      'account.UPDATED',
      'service.UPDATED',
      'user.UPDATED',
      'note of mine',
      'note of finance-queue',
      'note of general',
      'contact taken by ana',
      'contact given to me',
    ]);
  });

  it('an admin or owner socket gets everything, a message of a removed contact included', () => {
    const admin = connectionViewer({ userId: 'boss', isAdmin: true }, audience());
    expect(eventsFor(admin, batch, audience())).toEqual(batch);
    // Even without anything read for the batch.
    expect(eventsFor(connectionViewer({ userId: 'boss', isAdmin: true }, null), batch, null)).toEqual(batch);
  });

  it("with the account's setting a member sees every conversation", () => {
    const a = audience(true);
    expect(eventsFor(connectionViewer({ userId: 'me', isAdmin: false }, a), batch, a)).toEqual(batch);
  });

  it('a connection recorded without a role (before roles were recorded) is judged as a member', () => {
    const a = audience();
    const unknownRole = connectionViewer({ userId: 'boss' }, a);
    expect(unknownRole.seesAll).toBe(false);
    expect(labels(eventsFor(unknownRole, batch, a))).toEqual(['account.UPDATED', 'service.UPDATED', 'user.UPDATED', 'note of general']);
  });

  it("another member of Sales sees Sales' queue and their own, not the finance queue", () => {
    const a = audience();
    expect(labels(eventsFor(connectionViewer({ userId: 'ana', isAdmin: false }, a), batch, a))).toEqual([
      'account.UPDATED',
      'service.UPDATED',
      'user.UPDATED',
      'note of anas',
      'note of sales-queue',
      'note of general',
      'contact of anas',
      'contact of sales-queue',
      'contact taken by ana',
      'contact given to me',
    ]);
  });
});
