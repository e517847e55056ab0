/**
 * WhatsApp ids (JIDs) as the product keeps them: a person is `<digits>@s.whatsapp.net` (what
 * contacts made by hand get, see `whatsappJid`), a group `<id>@g.us`. Device suffixes are dropped.
 * When WhatsApp addresses a person by a private `@lid` id and Baileys also gives the phone-number
 * JID (`remoteJidAlt` / `participantAlt`), the phone-number JID is kept; full `@lid` resolution is
 * a later step.
 */
import { isJidBroadcast, isJidNewsletter, isLidUser, isPnUser, jidDecode, jidNormalizedUser, type WAMessageKey } from 'baileys';

/** The person's phone-number JID when Baileys knows it, else the JID as given; without device. */
export function personJid(jid: string, alt?: string | null): string {
  const chosen = isLidUser(jid) && alt && isPnUser(alt) ? alt : jid;
  return jidNormalizedUser(chosen) || chosen;
}

/** The chat of a message key: the group, or the person. */
export function chatJidOf(key: WAMessageKey): string | null {
  if (!key.remoteJid) return null;
  return personJid(key.remoteJid, key.remoteJidAlt);
}

/** Who wrote a message in a group. */
export function participantJidOf(key: WAMessageKey): string | null {
  return key.participant ? personJid(key.participant, key.participantAlt) : null;
}

/** The phone number (digits) of a person's JID; null for groups and `@lid` ids. */
export function phoneOf(jid: string): string | null {
  return isPnUser(jid) ? (jidDecode(jid)?.user ?? null) : null;
}

/** Status updates, broadcast lists and channels (newsletters) are not conversations of the inbox. */
export function isIgnoredChat(jid: string): boolean {
  return Boolean(isJidBroadcast(jid) || isJidNewsletter(jid));
}
