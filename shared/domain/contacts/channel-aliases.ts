/**
 * One person, one contact: a channel may name one chat by two ids (WhatsApp's private `@lid` id
 * and the phone-number JID of the same person). Every id of a contact has a guard item pointing at
 * it (`keys.channelContact`), the extra ones marked `alias` and listed on the contact
 * (`channelAliases`), so the lookup of every inbound message finds the contact by either id with
 * the one read it always made.
 *
 * Linking `idFromService` (the id to keep and send to) with `alias`, whatever was seen first:
 * - neither known: nothing to do (the next message carries both);
 * - only `idFromService` known: the alias is added to that contact;
 * - only `alias` known (a contact made before the number was known): that contact takes
 *   `idFromService` as its id and keeps its old id as an alias;
 * - both known as two contacts: the one holding `idFromService` stays; the other's messages move
 *   into its conversation (same ids, so the same order and quotes), its ids become aliases of the
 *   survivor, and it is deleted. Deterministic whichever was made first; ADR-0076.
 */
import { ack } from '#contracts/messages.ts';
import { releaseSeatStep } from '#db/accounts.ts';
import {
  claimChannelAliasStep,
  claimChannelIdStep,
  contactFields,
  contactIdByChannel,
  contactItem,
  contactTombstoneStep,
  deleteContactIfUnchangedStep,
  getContactItem,
  moveChannelIdStep,
  nextUpdatedAt,
  type ContactItem,
} from '#db/contacts.ts';
import { allMessagesOf, moveMessageSteps } from '#db/messages.ts';
import { refusedBy, replaceIfUnchangedStep, writeTogether, type Steps } from '#db/transaction.ts';
import type { Ports } from '../ports.ts';
import { tombstoneLifetimeSeconds } from './contact-directory.ts';

export interface ChannelLink {
  accountId: string;
  serviceId: string;
  /** The id to keep the contact under (and send to). */
  idFromService: string;
  alias: string;
  /** The phone number `idFromService` carries, for a contact that had none. */
  phoneNumber?: string | null;
}

/** Rounds of read-and-write before giving up on a contact that keeps changing (the next message or link tries again). */
const maxRounds = 5;

const idsOf = (contact: ContactItem) => [contact.idFromService, ...(contact.channelAliases ?? [])];

async function contactByChannel(ports: Ports, link: ChannelLink, channelId: string): Promise<ContactItem | undefined> {
  const id = await contactIdByChannel(ports.table, link.accountId, link.serviceId, channelId);
  return id ? getContactItem(ports.table, link.accountId, id) : undefined;
}

function withAliases(contact: ContactItem, aliases: string[], primary = contact.idFromService): string[] {
  return [...new Set([...idsOf(contact), ...aliases])].filter((id) => id !== primary);
}

/** The contact of `idFromService` takes `alias` too. */
async function addAlias(ports: Ports, contact: ContactItem, alias: string): Promise<void> {
  const next = contactItem({
    ...contactFields(contact),
    channelAliases: withAliases(contact, [alias]),
    updatedAt: nextUpdatedAt(ports.clock(), contact.updatedAt),
  });
  await writeTogether(ports.table, { alias: claimChannelAliasStep(contact, alias), contact: replaceIfUnchangedStep(next, contact.updatedAt) });
}

/** A contact known only by an alias takes `idFromService` as its id; its old id stays an alias. */
async function rekey(ports: Ports, contact: ContactItem, link: ChannelLink): Promise<void> {
  const next = contactItem({
    ...contactFields(contact),
    idFromService: link.idFromService,
    channelAliases: withAliases(contact, [], link.idFromService),
    phoneNumber: contact.phoneNumber ?? link.phoneNumber ?? null,
    updatedAt: nextUpdatedAt(ports.clock(), contact.updatedAt),
  });
  await writeTogether(ports.table, {
    primary: claimChannelIdStep(next),
    // The old id's guard now marks an alias.
    old: moveChannelIdStep(contact, contact.idFromService, contact.id, { contactId: contact.id, alias: true }),
    contact: replaceIfUnchangedStep(next, contact.updatedAt),
  });
}

/**
 * Moves what `absorbed` holds into `survivor`: its messages first (each in its own transaction, so
 * a crash half-way leaves both contacts and a later link finishes), then, in one transaction, its
 * ids, counters and last message, and its deletion, refused if it changed meanwhile (a message
 * arrived: the next round moves it too). Answers false while a message of ours is still being
 * sent from it (the dispatcher records the channel's answer on that item): a later link finishes.
 */
async function absorb(ports: Ports, survivor: ContactItem, absorbed: ContactItem): Promise<boolean> {
  const now = ports.clock();
  const messages = await allMessagesOf(ports.table, absorbed.accountId, absorbed.id);
  if (messages.some((m) => m.isFromMe && m.ack === ack.sending)) return false;
  for (const message of messages) {
    const steps = moveMessageSteps(message, survivor.id, now.toISOString());
    try {
      await writeTogether(ports.table, steps);
    } catch (error) {
      // Changed meanwhile (an ack, a reaction): the next round moves it as it is then.
      if (!refusedBy(error)) throw error;
    }
  }
  const newer = absorbed.lastMessageAt && (!survivor.lastMessageAt || absorbed.lastMessageAt > survivor.lastMessageAt);
  const next = contactItem({
    ...contactFields(survivor),
    channelAliases: withAliases(survivor, idsOf(absorbed)),
    phoneNumber: survivor.phoneNumber ?? absorbed.phoneNumber,
    avatarKey: survivor.avatarKey ?? absorbed.avatarKey,
    lastMessage: newer ? absorbed.lastMessage : survivor.lastMessage,
    lastMessageAt: newer ? absorbed.lastMessageAt : survivor.lastMessageAt,
    unread: survivor.unread + absorbed.unread,
    messagesCount: (survivor.messagesCount ?? 0) + (absorbed.messagesCount ?? 0),
    updatedAt: nextUpdatedAt(now, survivor.updatedAt),
  });
  const guards: Steps = Object.fromEntries(
    idsOf(absorbed).map((id, i) => [`id${i}`, moveChannelIdStep(absorbed, id, absorbed.id, { contactId: survivor.id, alias: true })]),
  );
  const deletedAt = nextUpdatedAt(now, absorbed.updatedAt);
  await writeTogether(ports.table, {
    ...guards,
    absorbed: deleteContactIfUnchangedStep(absorbed),
    tombstone: contactTombstoneStep(absorbed.accountId, absorbed.id, deletedAt, Math.floor(now.getTime() / 1000) + tombstoneLifetimeSeconds),
    seat: !absorbed.archivedAt && releaseSeatStep(absorbed.accountId, 'contactsCount'),
    survivor: replaceIfUnchangedStep(next, survivor.updatedAt),
  });
  return true;
}

/**
 * Links two ids of one chat to one contact (see the top of this file). Answers the contact that
 * holds `idFromService` afterwards, or undefined when neither id has a contact (or the link could
 * not be completed now; a later message or link completes it).
 */
export async function linkChannelIds(ports: Ports, link: ChannelLink): Promise<ContactItem | undefined> {
  if (link.idFromService === link.alias) return contactByChannel(ports, link, link.idFromService);
  for (let round = 0; round < maxRounds; round++) {
    const [kept, other] = await Promise.all([contactByChannel(ports, link, link.idFromService), contactByChannel(ports, link, link.alias)]);
    try {
      if (!kept && !other) return undefined;
      if (kept && kept.id === other?.id) {
        if (idsOf(kept).includes(link.alias)) return kept;
        // The alias's guard points here but the list lacks it: only the list is written.
        await writeTogether(ports.table, {
          contact: replaceIfUnchangedStep(
            contactItem({ ...contactFields(kept), channelAliases: withAliases(kept, [link.alias]), updatedAt: nextUpdatedAt(ports.clock(), kept.updatedAt) }),
            kept.updatedAt,
          ),
        });
      } else if (kept && !other) await addAlias(ports, kept, link.alias);
      else if (!kept && other) await rekey(ports, other, link);
      else if (kept && other && !(await absorb(ports, kept, other))) return kept;
    } catch (error) {
      // Someone changed one of them meanwhile: read again.
      if (!refusedBy(error)) throw error;
    }
    const linked = await contactByChannel(ports, link, link.idFromService);
    if (linked && idsOf(linked).includes(link.alias) && (await contactIdByChannel(ports.table, link.accountId, link.serviceId, link.alias)) === linked.id) {
      return linked;
    }
  }
  console.warn(`[contacts] could not link ${link.alias} to ${link.idFromService} on ${link.serviceId} now; a later message will`);
  return contactByChannel(ports, link, link.idFromService);
}
