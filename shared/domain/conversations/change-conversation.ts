/**
 * Changing a conversation (its assignee, department or status) together with the lines that record
 * the change, in one transaction guarded by the contact's version. The rule is checked on the
 * version read; when another write wins meanwhile, the contact is read again and the rule checked
 * again, so two agents taking the same conversation end with one owner and the other is told why.
 */
import { contactFields, contactItem, getContactItem, nextUpdatedAt, type ContactFields, type ContactItem } from '#db/contacts.ts';
import type { MessageItem } from '#db/messages.ts';
import { putNewStep, refusedBy, replaceIfUnchangedStep, type Steps, writeTogether } from '#db/transaction.ts';
import { fail } from '../errors.ts';
import type { Ports } from '../ports.ts';

/**
 * What a change does to the contact, the lines it writes, and other members of its transaction
 * (the lifecycle's timers and ratings, apply-lifecycle.ts); null: nothing to do.
 */
export type ConversationChange = { changes: Partial<ContactFields>; lines: MessageItem[]; steps?: Steps } | null;

/** Every attempt was refused: the contact (or another member of the transaction) kept changing. */
export class ConversationKeptChanging extends Error {
  constructor(contactId: string) {
    super(`Could not change conversation ${contactId}: the contact kept changing`);
    this.name = 'ConversationKeptChanging';
  }
}

export async function changeConversation(
  ports: Ports,
  accountId: string,
  contactId: string,
  decide: (contact: ContactItem) => ConversationChange | Promise<ConversationChange>,
): Promise<ContactItem> {
  for (let attempt = 0; attempt < 8; attempt++) {
    const contact = await getContactItem(ports.table, accountId, contactId, true);
    if (!contact) throw fail.notFound();
    const change = await decide(contact);
    if (!change) return contact;
    const next = contactItem({
      ...contactFields(contact),
      ...change.changes,
      messagesCount: (contact.messagesCount ?? 0) + change.lines.length,
      updatedAt: nextUpdatedAt(ports.clock(), contact.updatedAt),
    });
    try {
      await writeTogether(ports.table, {
        ...change.steps,
        contact: replaceIfUnchangedStep(next, contact.updatedAt),
        ...Object.fromEntries(change.lines.map((line, i) => [`line${i}`, putNewStep(line)])),
      });
      return next;
    } catch (error) {
      if (!refusedBy(error)) throw error;
      await new Promise((r) => setTimeout(r, 5 * (attempt + 1)));
    }
  }
  throw new ConversationKeptChanging(contactId);
}
