import { describe, expect, it } from 'vitest';
import { freePlan, proPlanDefaults } from '#contracts/plans.ts';
import type { ContactItem } from '#db/contacts.ts';
import type { ServiceItem } from '#db/services.ts';
import type { UserItem } from '#db/users.ts';
import { connectionsToFit, contactsToFit, isBeyondLimit, limitsChanged, usersToFit } from '#domain/billing/plan-limits.ts';

const day = (n: number) => `2026-11-${String(n).padStart(2, '0')}T12:00:00.000Z`;
const ids = (items: { id: string }[]) => items.map((i) => i.id);

const user = (id: string, created: number, fields: Partial<UserItem> = {}) =>
  ({ id, createdAt: day(created), isOwner: false, archivedAt: null, archivedReason: null, ...fields }) as UserItem;
const service = (id: string, created: number, fields: Partial<ServiceItem> = {}) =>
  ({ id, createdAt: day(created), status: 'connected', ...fields }) as ServiceItem;
const contact = (id: string, created: number, lastMessageDay: number | null, fields: Partial<ContactItem> = {}) =>
  ({
    id,
    createdAt: day(created),
    lastMessageAt: lastMessageDay ? day(lastMessageDay) : null,
    archivedAt: null,
    archivedReason: null,
    ...fields,
  }) as ContactItem;

describe('plan limits', () => {
  it('act only when one of the three limits moves', () => {
    expect(limitsChanged(proPlanDefaults, null)).toBe(true);
    expect(limitsChanged(null, { ...freePlan, productName: 'Free' })).toBe(false);
    expect(limitsChanged(proPlanDefaults, { ...proPlanDefaults, productName: 'Pro Anual' })).toBe(false);
    expect(limitsChanged(proPlanDefaults, { ...proPlanDefaults, contacts: 2 })).toBe(true);
  });

  it('archive the newest active users beyond the limit, never the owner, and leave the archived ones alone', () => {
    const users = [
      user('owner', 5, { isOwner: true }),
      user('old', 1),
      user('mid', 2),
      user('new', 3),
      user('byHand', 4, { archivedAt: day(6), archivedReason: 'manual' }),
    ];
    expect(ids(usersToFit(users, 1).archive)).toEqual(['new', 'mid', 'old']);
    expect(ids(usersToFit(users, 3).archive)).toEqual(['new']);
    expect(usersToFit(users, 4)).toEqual({ archive: [], restore: [] });
  });

  it('bring back users the limit archived, oldest first, while the plan has room; never those archived by hand', () => {
    const users = [
      user('owner', 1, { isOwner: true }),
      user('b', 3, { archivedAt: day(9), archivedReason: 'limit' }),
      user('a', 2, { archivedAt: day(9), archivedReason: 'limit' }),
      user('byHand', 1, { archivedAt: day(8), archivedReason: 'manual' }),
      user('legacy', 1, { archivedAt: day(8) }),
    ];
    expect(ids(usersToFit(users, 2).restore)).toEqual(['a']);
    expect(ids(usersToFit(users, 10).restore)).toEqual(['a', 'b']);
  });

  it('stop running connections beyond the limit in creation order, newest first, and start again those within it', () => {
    const services = [
      service('first', 1),
      service('second', 2, { status: 'starting' }),
      service('third', 3, { status: 'disconnected' }),
      service('fourth', 4, { status: 'isOnQrCode' }),
    ];
    expect(ids(connectionsToFit(services, 1).stop)).toEqual(['fourth', 'second']);
    expect(isBeyondLimit(services, 'second', 1)).toBe(true);
    expect(isBeyondLimit(services, 'first', 1)).toBe(false);
    const stopped = [
      service('first', 1),
      service('second', 2, { status: 'disconnected', stoppedByLimit: true }),
      service('third', 3, { status: 'disconnected' }),
      service('fourth', 4, { status: 'disconnected', stoppedByLimit: true }),
    ];
    expect(ids(connectionsToFit(stopped, 3).start)).toEqual(['second']);
    expect(ids(connectionsToFit(stopped, 5).start)).toEqual(['second', 'fourth']);
  });

  it('archive the least recently active contacts first (never written to before any message), and bring back the most recent first', () => {
    const contacts = [
      contact('talked-yesterday', 1, 20),
      contact('never', 5, null),
      contact('talked-long-ago', 2, 10),
      contact('byHand', 3, 30, { archivedAt: day(25), archivedReason: 'manual' }),
    ];
    expect(ids(contactsToFit(contacts, 3, 1).archive)).toEqual(['never', 'talked-long-ago']);
    const archived = [
      contact('a', 1, 10, { archivedAt: day(21), archivedReason: 'limit' }),
      contact('b', 2, 20, { archivedAt: day(21), archivedReason: 'limit' }),
      contact('c', 3, null, { archivedAt: day(21), archivedReason: 'limit' }),
      contact('byHand', 4, 30, { archivedAt: day(25), archivedReason: 'manual' }),
    ];
    expect(ids(contactsToFit(archived, 0, 2).restore)).toEqual(['b', 'a']);
    expect(ids(contactsToFit(archived, 0, 100).restore)).toEqual(['b', 'a', 'c']);
    expect(contactsToFit(archived, 2, 2)).toEqual({ archive: [], restore: [] });
  });
});
