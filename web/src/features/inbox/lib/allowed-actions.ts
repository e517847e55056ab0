/**
 * What the signed-in person may do with a conversation they see (docs/product.md#team-inbox), the server's rules of
 * docs/api.md "Team inbox" (shared/domain/conversations/assignment.ts) so the header offers only
 * what the server would accept. Admins act on every conversation; a member on their own and on
 * nobody's. 'Assumir' is for nobody's only: taking someone else's is a 409 for everyone (an admin
 * transfers it to themselves instead). Anyone who sees a conversation may tag its contact.
 */
import type { Contact } from '#contracts/contacts.ts';
import { conversationStatuses, type ConversationStatus } from '#contracts/conversation-labels.ts';

export interface ConversationActions {
  take: boolean;
  transfer: boolean;
  release: boolean;
  /** The statuses it may be moved to (never its current one). */
  statuses: ConversationStatus[];
  tags: boolean;
}

export function allowedConversationActions(contact: Pick<Contact, 'userId' | 'status'>, me: { id: string; isAdmin: boolean }): ConversationActions {
  const mine = contact.userId === me.id;
  const nobodys = !contact.userId;
  const mayChange = me.isAdmin || mine || nobodys;
  const current = contact.status ?? 'open';
  return {
    take: nobodys,
    transfer: mayChange,
    release: !nobodys && (me.isAdmin || mine),
    statuses: mayChange ? conversationStatuses.filter((s) => s !== current) : [],
    tags: true,
  };
}

/** The menu's words for moving a conversation to a status. */
export const statusActionLabels: Record<ConversationStatus, string> = {
  open: 'Reabrir',
  pending: 'Marcar como pendente',
  resolved: 'Resolver',
};
