/**
 * Who handles a conversation and in what state it is (docs/product.md#team-inbox): take ('Assumir'), transfer to a
 * user or a department with an optional note, release, and the status (open, pending, resolved).
 * Admins act on every conversation; a member acts on the ones they see that are theirs or nobody's
 * (notes aside: anyone who sees a conversation may write one). Every change writes a system line.
 * A conversation the caller cannot see answers 404 to every change, as to every read: nothing is
 * said about it, not even that it exists (visibility.ts).
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
import { TurnAfterMove } from '../automations/assign-in-turn.ts';
import { automationsOnce, withLifecycle } from '../automations/team-moves.ts';
import { changeConversation } from './change-conversation.ts';
import { conversationLine, type Actor } from './conversation-lines.ts';
import { canSee, loadVisibleContact, viewerOf, type Viewer } from './visibility.ts';

const actorOf = (session: AccountSession): Actor => ({ id: session.user.id, name: session.user.name });

async function present(ports: Ports, item: ContactItem): Promise<Contact> {
  return presentContact(item, await getServiceItem(ports.table, item.accountId, item.serviceId), ports.storage.downloadUrl);
}

/** Someone else handles it (only said to a caller who sees the conversation): 409 naming them. */
function takenBy(contact: ContactItem) {
  const who = contact.user?.name ?? 'Outra pessoa';
  return fail.conflict(errorTexts.conversationTaken, [{ path: 'userId', message: `${who} já atende esta conversa` }]);
}

/**
 * A change to a conversation the caller cannot see as it is now answers 404, always and before
 * anything else, exactly as `GET /contacts/{id}` and an unknown id do: saying who handles it, or
 * merely that it exists, would tell a member about a conversation hidden from them. The loser of
 * a race to take one from their queue is no exception: once the winner has it, a member who sees
 * only their own and their queues' conversations no longer sees it, and is told 404.
 */
function checkVisible(viewer: Viewer, contact: ContactItem): void {
  if (!canSee(viewer, contact)) throw fail.notFound();
}

/**
 * The rules every change but a note shares: the caller sees the conversation (else 404, see
 * `checkVisible`), and (members) it is theirs or nobody's. Someone else's conversation the member
 * does see (the account's `membersSeeAll`) answers 409 naming who has it; admins change any.
 */
function checkMayChange(session: AccountSession, viewer: Viewer, contact: ContactItem): void {
  checkVisible(viewer, contact);
  if (!session.user.isAdmin && contact.userId && contact.userId !== session.user.id) throw takenBy(contact);
}

/**
 * 'Assumir': the conversation becomes the caller's. Hidden from the caller: 404 (`checkVisible`);
 * seen but someone else's (an admin, or a member with `membersSeeAll`): 409 naming who has it.
 */
export async function takeConversation(ports: Ports, session: AccountSession, contactId: string): Promise<Contact> {
  const viewer = await viewerOf(ports, session);
  const actor = actorOf(session);
  const automations = automationsOnce(ports, session.accountId);
  const next = await changeConversation(ports, session.accountId, contactId, async (contact) => {
    checkVisible(viewer, contact);
    if (contact.userId === actor.id) return null;
    if (contact.userId) throw takenBy(contact);
    const change = {
      changes: { userId: actor.id, user: actor },
      lines: [conversationLine(ports, contact, 'system', `${actor.name} assumiu a conversa`, actor, ports.clock().getTime())],
    };
    return withLifecycle(ports, contact, change, { kind: 'agent_assign', userId: actor.id }, await automations(contact.serviceId));
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
  const automations = automationsOnce(ports, session.accountId);
  const turn = new TurnAfterMove();
  const next = await changeConversation(ports, session.accountId, contactId, async (contact) => {
    checkMayChange(session, viewer, contact);
    const now = ports.clock().getTime();
    const change = {
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
    const event = toUser
      ? ({ kind: 'agent_assign', userId: toUser.id, ...(toDepartment ? { departmentId: toDepartment.id } : {}) } as const)
      : ({ kind: 'agent_transfer_department', departmentId: toDepartment!.id } as const);
    return withLifecycle(ports, contact, change, event, await automations(contact.serviceId), turn);
  });
  await turn.run(ports, { accountId: session.accountId, contactId }, await automations(next.serviceId));
  return present(ports, next);
}

/** Gives the conversation back to its department's (or the general) queue. */
export async function releaseConversation(ports: Ports, session: AccountSession, contactId: string): Promise<Contact> {
  const viewer = await viewerOf(ports, session);
  const actor = actorOf(session);
  const automations = automationsOnce(ports, session.accountId);
  const turn = new TurnAfterMove();
  const next = await changeConversation(ports, session.accountId, contactId, async (contact) => {
    checkMayChange(session, viewer, contact);
    if (!contact.userId) return null;
    const change = {
      changes: { userId: null, user: null },
      lines: [conversationLine(ports, contact, 'system', `${actor.name} liberou a conversa`, actor, ports.clock().getTime())],
    };
    return withLifecycle(ports, contact, change, { kind: 'agent_release' }, await automations(contact.serviceId), turn);
  });
  await turn.run(ports, { accountId: session.accountId, contactId }, await automations(next.serviceId));
  return present(ports, next);
}

const statusLine = (name: string, status: ConversationStatus) =>
  status === 'open' ? `${name} reabriu a conversa` : `${name} marcou a conversa como ${conversationStatusLabels[status].toLowerCase()}`;

export async function setConversationStatus(ports: Ports, session: AccountSession, contactId: string, status: ConversationStatus): Promise<Contact> {
  const viewer = await viewerOf(ports, session);
  const actor = actorOf(session);
  const automations = automationsOnce(ports, session.accountId);
  const turn = new TurnAfterMove();
  const next = await changeConversation(ports, session.accountId, contactId, async (contact) => {
    checkMayChange(session, viewer, contact);
    const current = contact.status ?? 'open';
    if (current === status) return null;
    const change = { changes: { status }, lines: [conversationLine(ports, contact, 'system', statusLine(actor.name, status), actor, ports.clock().getTime())] };
    // Resolving closes the lifecycle's conversation (closing message, rating question); reopening starts it again; 'Pendente' by hand is a status only.
    const event = status === 'resolved' ? ({ kind: 'agent_resolve' } as const) : current === 'resolved' ? ({ kind: 'agent_reopen' } as const) : null;
    return withLifecycle(ports, contact, change, event, event ? await automations(contact.serviceId) : null, turn);
  });
  await turn.run(ports, { accountId: session.accountId, contactId }, await automations(next.serviceId));
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
