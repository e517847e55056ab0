/**
 * Who receives which realtime event (docs/product.md#team-inbox): the HTTP API's visibility rule
 * (shared/domain/conversations/visibility.ts) applied to the socket. Account-level events
 * (account.*, user.*, service.*) go to every connection of the account; a conversation's events
 * (contact.*, message.*, notes and system lines included) go to admins and owners always, and to a
 * member only when they see the conversation. A contact change is judged on both sides of the
 * change: a member who saw the conversation before it moved away gets that one last
 * contact.UPDATED (which names the new owner or department), so their list can drop it; nothing
 * after. A message is judged on its conversation as it stands when the batch is fanned out.
 * See ADR-0123.
 */
import type { ContactItem } from '#db/contacts.ts';
import { getContactItem } from '#db/contacts.ts';
import { accountVisibility, canSee, viewerFrom, type AccountVisibility, type Viewer } from '../conversations/visibility.ts';
import type { Ports } from '../ports.ts';
import type { AddressedEvent } from './events.ts';

/** Who a conversation is with: the part of the contact the rule reads. */
export type Assignment = Pick<ContactItem, 'userId' | 'departmentId'>;

/** The conversation an event belongs to: its contact id and, for a contact change, its assignment after and before. */
export interface EventConversation {
  contactId: string;
  /** Known from the change itself (contact.*); absent for a message, whose contact is read once per batch. */
  assignments?: Assignment[];
}

/** What one batch of one account needs to judge its members' sockets: read once, shared by every connection. */
export interface BatchAudience {
  account: AccountVisibility;
  /** The current assignment of each conversation a message of the batch belongs to (undefined: the contact is gone). */
  conversations: Map<string, Assignment | undefined>;
}

/** The viewer a realtime connection is: its user and role, as recorded when the socket opened. */
export function connectionViewer(connection: { userId: string; isAdmin?: boolean }, audience: BatchAudience | null): Viewer {
  if (connection.isAdmin === true) return { userId: connection.userId, seesAll: true, departmentIds: [] };
  // No audience read: the batch holds no conversation event, so nothing is judged.
  return viewerFrom({ id: connection.userId, isAdmin: false }, audience?.account ?? { membersSeeAll: false, departments: [] });
}

/** The events of a batch one viewer receives, in order. */
export function eventsFor(viewer: Viewer, events: AddressedEvent[], audience: BatchAudience | null): AddressedEvent[] {
  if (viewer.seesAll) return events;
  return events.filter((e) => {
    if (!e.conversation) return true;
    const assignments = e.conversation.assignments ?? [audience?.conversations.get(e.conversation.contactId)].filter((a) => a !== undefined);
    return assignments.some((a) => canSee(viewer, a));
  });
}

/**
 * Reads what the batch's member sockets are judged with: the account's setting and departments (two
 * reads) and the contact of each distinct conversation a message belongs to (one read each). Bounded
 * by the batch, never by the number of connections. Null when nothing needs judging.
 */
export async function batchAudience(ports: Ports, accountId: string, events: AddressedEvent[]): Promise<BatchAudience | null> {
  if (!events.some((e) => e.conversation)) return null;
  const unknown = [...new Set(events.flatMap((e) => (e.conversation && !e.conversation.assignments ? [e.conversation.contactId] : [])))];
  const [account, contacts] = await Promise.all([
    accountVisibility(ports, accountId),
    Promise.all(unknown.map((id) => getContactItem(ports.table, accountId, id))),
  ]);
  const conversations = new Map<string, Assignment | undefined>(
    unknown.map((id, i) => {
      const contact = contacts[i];
      return [id, contact ? assignmentOf(contact) : undefined];
    }),
  );
  return { account, conversations };
}

/** A contact's assignment alone (an event carries no more of the contact than the rule reads). */
export function assignmentOf(contact: Assignment): Assignment {
  return { userId: contact.userId ?? null, departmentId: contact.departmentId ?? null };
}
