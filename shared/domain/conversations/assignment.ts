/**
 * Who handles a conversation and in what state it is (issue 14): take ('Assumir'), transfer to a
 * user or a department with an optional note, release, and the status (open, pending, resolved).
 * Admins act on every conversation; a member acts on the ones they see that are theirs or nobody's
 * (notes aside: anyone who sees a conversation may write one). Every change writes a system line.
 */
import type { Contact } from '#contracts/contacts.ts';
import { conversationStatusLabels, type ConversationStatus, type NotePayload, type TransferPayload } from '#contracts/conversations.ts';
import { errorTexts } from '#contracts/errors.ts';
import type { Message } from '#contracts/messages.ts';
import type { ContactItem } from '#db/contacts.ts';
import { getServiceItem } from '#db/services.ts';
import { getUserItem } from '#db/users.ts';
import { presentContact } from '../contacts/present-contact.ts';
import { findDepartment } from '../departments/departments.ts';
import { fail } from '../errors.ts';
import { toMessage } from '../messages/present-message.ts';
import type { Ports } from '../ports.ts';
import type { AccountSession } from '../session.ts';
import { changeConversation } from './change-conversation.ts';
import { conversationLine, type Actor } from './conversation-lines.ts';
import { canSee, loadVisibleContact, viewerOf, type Viewer } from './visibility.ts';

const actorOf = (session: AccountSession): Actor => ({ id: session.user.id, name: session.user.name });

async function present(ports: Ports, item: ContactItem): Promise<Contact> {
  return presentContact(item, await getServiceItem(ports.table, item.accountId, item.serviceId), ports.storage.downloadUrl);
}

/** Someone else handles it: 409 naming them. */
function takenBy(contact: ContactItem) {
  const who = contact.user?.name ?? 'Outra pessoa';
  return fail.conflict(errorTexts.conversationTaken, [{ path: 'userId', message: `${who} já atende esta conversa` }]);
}

/**
 * The rules every change but a note shares: (members) it is theirs or nobody's, and the caller sees
 * it. Someone else's conversation that the caller would see unassigned (it was in their queue a
 * moment ago: the loser of a race to take it) answers 409 naming who has it; anything else hidden, 404.
 */
function checkMayChange(session: AccountSession, viewer: Viewer, contact: ContactItem): void {
  const someoneElses = Boolean(contact.userId && contact.userId !== session.user.id);
  if (someoneElses && !session.user.isAdmin && canSee(viewer, { ...contact, userId: null })) throw takenBy(contact);
  if (!canSee(viewer, contact)) throw fail.notFound();
}

/** 'Assumir': the conversation becomes the caller's, unless someone else has it. */
export async function takeConversation(ports: Ports, session: AccountSession, contactId: string): Promise<Contact> {
  const viewer = await viewerOf(ports, session);
  const actor = actorOf(session);
  const next = await changeConversation(ports, session.accountId, contactId, (contact) => {
    if (contact.userId === actor.id) return null;
    if (contact.userId && canSee(viewer, { ...contact, userId: null })) throw takenBy(contact);
    if (!canSee(viewer, contact)) throw fail.notFound();
    return {
      changes: { userId: actor.id, user: actor },
      lines: [conversationLine(ports, contact, 'system', `${actor.name} assumiu a conversa`, actor, ports.clock().getTime())],
    };
  });
  return present(ports, next);
}

/**
 * Transfers to a user (who then has it; the department stays unless one is given), to a
 * department (its queue: nobody has it), or to both. The note, if any, follows as an internal note.
 */
export async function transferConversation(ports: Ports, session: AccountSession, contactId: string, payload: TransferPayload): Promise<Contact> {
  const viewer = await viewerOf(ports, session);
  // The conversation first: a stranger's ids answer 404 before anything is said about the target.
  const [, user, department] = await Promise.all([
    loadVisibleContact(ports, session, contactId, viewer),
    payload.userId ? getUserItem(ports.table, session.accountId, payload.userId) : undefined,
    payload.departmentId ? findDepartment(ports, session.accountId, payload.departmentId) : undefined,
  ]);
  const problems = [
    ...(payload.userId && (!user || user.archivedAt) ? [{ path: 'userId', message: 'Usuário não encontrado' }] : []),
    ...(payload.departmentId && (!department || department.archivedAt) ? [{ path: 'departmentId', message: 'Departamento não encontrado' }] : []),
  ];
  if (problems.length) throw fail.invalid(errorTexts.invalidParams, problems);
  const actor = actorOf(session);
  const toUser = user ? { id: user.id, name: user.name } : null;
  const toDepartment = department ? { id: department.id, name: department.name } : null;
  const target = toUser && toDepartment ? `${toUser.name} (${toDepartment.name})` : (toUser?.name ?? toDepartment?.name ?? '');
  const next = await changeConversation(ports, session.accountId, contactId, (contact) => {
    checkMayChange(session, viewer, contact);
    const now = ports.clock().getTime();
    return {
      changes: {
        userId: toUser?.id ?? null,
        user: toUser,
        ...(toDepartment ? { departmentId: toDepartment.id, department: toDepartment } : {}),
      },
      lines: [
        conversationLine(ports, contact, 'system', `Transferida para ${target}`, actor, now),
        ...(payload.note ? [conversationLine(ports, contact, 'note', payload.note, actor, now + 1)] : []),
      ],
    };
  });
  return present(ports, next);
}

/** Gives the conversation back to its department's (or the general) queue. */
export async function releaseConversation(ports: Ports, session: AccountSession, contactId: string): Promise<Contact> {
  const viewer = await viewerOf(ports, session);
  const actor = actorOf(session);
  const next = await changeConversation(ports, session.accountId, contactId, (contact) => {
    checkMayChange(session, viewer, contact);
    if (!contact.userId) return null;
    return {
      changes: { userId: null, user: null },
      lines: [conversationLine(ports, contact, 'system', `${actor.name} liberou a conversa`, actor, ports.clock().getTime())],
    };
  });
  return present(ports, next);
}

const statusLine = (name: string, status: ConversationStatus) =>
  status === 'open' ? `${name} reabriu a conversa` : `${name} marcou a conversa como ${conversationStatusLabels[status].toLowerCase()}`;

export async function setConversationStatus(ports: Ports, session: AccountSession, contactId: string, status: ConversationStatus): Promise<Contact> {
  const viewer = await viewerOf(ports, session);
  const actor = actorOf(session);
  const next = await changeConversation(ports, session.accountId, contactId, (contact) => {
    checkMayChange(session, viewer, contact);
    if ((contact.status ?? 'open') === status) return null;
    return { changes: { status }, lines: [conversationLine(ports, contact, 'system', statusLine(actor.name, status), actor, ports.clock().getTime())] };
  });
  return present(ports, next);
}

/** An internal note: seen by the team in the conversation, never sent to the customer. */
export async function addNote(ports: Ports, session: AccountSession, payload: NotePayload): Promise<Message> {
  const viewer = await viewerOf(ports, session);
  const actor = actorOf(session);
  let note: Parameters<typeof toMessage>[0] | undefined;
  await changeConversation(ports, session.accountId, payload.contactId, (contact) => {
    if (!canSee(viewer, contact)) throw fail.notFound();
    note = conversationLine(ports, contact, 'note', payload.text, actor, ports.clock().getTime());
    return { changes: {}, lines: [note] };
  });
  return toMessage(note!, ports.storage.downloadUrl);
}
