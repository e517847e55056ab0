/**
 * Values repeated across contacts are kept once: the enumerations' and ids' strings, and each
 * assignee's and department's `{ id, name }` object; the estimate of one contact leaves out what is
 * shared, and a changed name is a new object rather than a change to the shared one.
 */
import { describe, expect, it } from 'vitest';
import type { ContactFields } from '#db/contacts.ts';
import { valueBytes } from './directory-memory.ts';
import { SharedValues, sharedBytes } from './shared-values.ts';

const contact = (id: string, user: { id: string; name: string } | null): ContactFields =>
  JSON.parse(
    JSON.stringify({
      id,
      accountId: 'A1',
      serviceId: 'S1',
      name: `Cliente ${id}`,
      contactType: 'user',
      idFromService: `${id}@s.whatsapp.net`,
      email: null,
      phoneNumber: null,
      phoneCountry: 'BR',
      gender: null,
      avatarKey: null,
      isOnline: false,
      lastSeenAt: null,
      archivedAt: null,
      archivedReason: null,
      lastMessage: { id: `m-${id}`, text: 'Oi', type: 'text', isFromMe: false, ack: 0, timestamp: '2026-11-28T10:00:00.000Z', file: null },
      lastMessageAt: '2026-11-28T10:00:00.000Z',
      unread: 1,
      messagesCount: 1,
      userId: user?.id ?? null,
      user,
      departmentId: 'D1',
      department: { id: 'D1', name: 'Vendas' },
      createdAt: '2026-11-01T10:00:00.000Z',
      updatedAt: '2026-11-28T10:00:00.000Z',
    }),
  );

describe('shared values of contacts', () => {
  it("keeps one object per assignee and department, never mutable, and counts it as the contact's no more", () => {
    const shared = new SharedValues();
    const a = contact('c1', { id: 'U1', name: 'Ana' });
    const b = contact('c2', { id: 'U1', name: 'Ana' });
    const c = contact('c3', { id: 'U1', name: 'Ana Paula' });
    const before = valueBytes(a) - sharedBytes(a);
    for (const item of [a, b, c]) shared.internFields(item);
    expect(a.user).toBe(b.user);
    expect(a.department).toBe(c.department);
    // Renamed since: another object, the first unchanged.
    expect(c.user).not.toBe(a.user);
    expect(c.user).toEqual({ id: 'U1', name: 'Ana Paula' });
    expect(a.user).toEqual({ id: 'U1', name: 'Ana' });
    expect(Object.isFrozen(a.user)).toBe(true);
    expect(valueBytes(a) - sharedBytes(a)).toBeLessThan(before);
    // Nobody's: nothing shared, nothing subtracted.
    const d = contact('c4', null);
    shared.internFields(d);
    expect(d.user).toBeNull();
  });
});
