/** A user as the API answers it: never its password hash. */
import type { User } from '#contracts/entities.ts';
import type { UserItem } from '#db/users.ts';

export function toUser(item: UserItem, account: { id: string; name: string } | null): User {
  return {
    id: item.id,
    name: item.name,
    email: item.email,
    accountId: item.accountId,
    account: item.accountId && account ? { id: account.id, name: account.name } : null,
    avatar: item.avatarUrl ? { url: item.avatarUrl } : null,
    isAdmin: item.isAdmin,
    isOwner: item.isOwner,
    emailVerified: item.emailVerified,
    pendingEmail: item.pendingEmail ?? null,
    archivedAt: item.archivedAt,
    // Users archived before reasons were kept were archived by hand.
    archivedReason: item.archivedAt ? (item.archivedReason ?? 'manual') : null,
    skipSignature: item.skipSignature === true,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  };
}
