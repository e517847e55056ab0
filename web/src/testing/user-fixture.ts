import type { User } from '#contracts/entities.ts';

/** Rita, the owner and admin of 'Doceria', as the API answers a user; tests change what they look at. */
export function adminFixture(fields: Partial<User> = {}, at = '2026-01-01T00:00:00.000Z'): User {
  return {
    id: 'u1',
    name: 'Rita',
    email: 'rita@example.com',
    accountId: 'a1',
    account: { id: 'a1', name: 'Doceria' },
    avatar: null,
    isAdmin: true,
    isOwner: true,
    emailVerified: true,
    pendingEmail: null,
    archivedAt: null,
    archivedReason: null,
    createdAt: at,
    updatedAt: at,
    ...fields,
  } as User;
}
