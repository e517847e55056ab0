/**
 * WhatsApp ids (JIDs) as the product keeps them: a person is `<digits>@s.whatsapp.net` (what
 * contacts made by hand get, see `whatsappJid`), a group `<id>@g.us`. Device suffixes are dropped.
 *
 * WhatsApp also addresses people by a private `@lid` id. A person is kept under the phone-number
 * JID whenever it can be had (it is also what sends go to): from the message itself (Baileys'
 * `remoteJidAlt` / `participantAlt`), else from Baileys' LID store (`signalRepository.lidMapping`,
 * filled from message envelopes, history and `lid-mapping.update`). The other id goes along as an
 * alias, so the domain finds the same contact by either (see `InboundMessage.chat.aliases`).
 * A person whose number is not known yet is kept under the `@lid` id until a link arrives.
 */
import { isJidBroadcast, isJidNewsletter, isLidUser, isPnUser, jidDecode, jidNormalizedUser, type LIDMapping, type WAMessageKey } from 'baileys';
import type { InboundAlias } from '#domain/channels/port.ts';

/** The phone-number JID of a `@lid` id, from what this session's Baileys store knows (no network); null when unknown. */
export type PnForLid = (lid: string) => Promise<string | null>;

/** A JID without its device. */
export function personJid(jid: string): string {
  return jidNormalizedUser(jid) || jid;
}

/** The ids of a person or chat: the one to keep (the phone-number JID when known) and its other ids. */
export interface Person {
  id: string;
  aliases: string[];
}

/** A person's ids from a JID and Baileys' alternate JID of it, asking the LID store when the message has no number. */
export async function personOf(jid: string, alt?: string | null, pnForLid?: PnForLid): Promise<Person> {
  const own = personJid(jid);
  const other = alt ? personJid(alt) : null;
  if (isLidUser(own)) {
    const pn = other && isPnUser(other) ? other : await lookUp(pnForLid, own);
    return pn ? { id: pn, aliases: [own] } : { id: own, aliases: [] };
  }
  if (isPnUser(own) && other && isLidUser(other)) return { id: own, aliases: [other] };
  return { id: own, aliases: [] };
}

async function lookUp(pnForLid: PnForLid | undefined, lid: string): Promise<string | null> {
  if (!pnForLid) return null;
  try {
    const pn = await pnForLid(lid);
    return pn && isPnUser(pn) ? personJid(pn) : null;
  } catch {
    return null;
  }
}

/**
 * The alternate JID of a message's chat, when it is the chat's. Baileys takes it from the
 * sender's attributes, so on a message sent from our own phone it may be our own: there only a
 * phone number other than ours is taken (our own @lid id cannot be told apart).
 */
function chatAlt(key: WAMessageKey, me: string | null): string | null | undefined {
  if (!key.fromMe) return key.remoteJidAlt;
  const alt = key.remoteJidAlt ? personJid(key.remoteJidAlt) : null;
  return alt && isPnUser(alt) && alt !== me ? alt : null;
}

/**
 * The chat of a message key: the group, or the person (`me`: our own phone-number JID). A Brazilian
 * mobile also goes with its other spelling (with or without the ninth digit, `brazilianVariant`)
 * as an alias, so a contact typed by hand with the ninth digit is the one found when the person
 * writes from the JID WhatsApp keeps without it.
 */
export async function chatOf(key: WAMessageKey, pnForLid?: PnForLid, me: string | null = null): Promise<Person | null> {
  if (!key.remoteJid) return null;
  const person = await personOf(key.remoteJid, chatAlt(key, me), pnForLid);
  const variant = brazilianVariant(person.id);
  return variant && variant !== me ? { id: person.id, aliases: [...person.aliases, variant] } : person;
}

/** Who wrote a message in a group. */
export function participantOf(key: WAMessageKey, pnForLid?: PnForLid): Promise<Person> | null {
  return key.participant ? personOf(key.participant, key.participantAlt, pnForLid) : null;
}

/** A mapping Baileys learnt (`lid-mapping.update`) as the link the domain takes; null for anything else. */
export function aliasOfMapping(mapping: LIDMapping): InboundAlias | null {
  // Baileys' store accepts the pair in either order.
  const [lid, pn] = [mapping.lid, mapping.pn].map(personJid).sort((a, b) => Number(isPnUser(a)) - Number(isPnUser(b)));
  if (!lid || !pn || !isLidUser(lid) || !isPnUser(pn)) return null;
  return { idFromService: pn, alias: lid, phoneNumber: phoneOf(pn) };
}

/**
 * The same Brazilian mobile with or without its ninth digit: `55 DD 9XXXXXXXX` and `55 DD XXXXXXXX`,
 * where the eight digits start with 6 to 9 (the mobiles that got the ninth digit in 2012-2016).
 * WhatsApp keeps numbers registered before then without it and answers, and writes, from that JID,
 * while people type the number with it. Null for landlines, other countries, groups and `@lid` ids.
 */
export function brazilianVariant(jid: string): string | null {
  const match = /^55(\d{2})(9?)([6-9]\d{7})@s\.whatsapp\.net$/.exec(jid);
  if (!match) return null;
  const [, area, ninth, rest] = match;
  return `55${area}${ninth ? '' : '9'}${rest}@s.whatsapp.net`;
}

/** The phone number (digits) of a person's JID; null for groups and `@lid` ids. */
export function phoneOf(jid: string): string | null {
  return isPnUser(jid) ? (jidDecode(jid)?.user ?? null) : null;
}

/** Status updates, broadcast lists and channels (newsletters) are not conversations of the inbox. */
export function isIgnoredChat(jid: string): boolean {
  return Boolean(isJidBroadcast(jid) || isJidNewsletter(jid));
}
