import type { User } from '#contracts/entities.ts';

type Me = Pick<User, 'id' | 'isAdmin'> | null | undefined;

/** Editing: admins on non-owners, and anyone on themselves (docs/product.md#roles-and-permissions). */
export function canEditUser(me: Me, target: Pick<User, 'id' | 'isOwner'>): boolean {
  return !!me && (me.id === target.id || (me.isAdmin && !target.isOwner));
}

/** Archiving: admins only, never the owner, never oneself. */
export function canArchiveUser(me: Me, target: Pick<User, 'id' | 'isOwner'>): boolean {
  return !!me && me.isAdmin && !target.isOwner && me.id !== target.id;
}
