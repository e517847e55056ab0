/**
 * Opting out of campaigns (LGPD; ADR-0225, docs/product.md#campaign-audiences): a customer's
 * message that is only an opt-out word records on the contact when and with which word
 * (`optedOutAt`, `optedOutWord`), which every later campaign honours; an opt-in word clears it. The
 * conversation goes on as any other: the message is stored, counted unread and runs the lifecycle.
 */
import { fillAutomationText } from '#contracts/automations.ts';
import type { Contact } from '#contracts/contacts.ts';
import { optOutIntent, type OptOutSettings } from '#contracts/opt-out.ts';
import type { ContactFields, ContactItem } from '#db/contacts.ts';
import type { MessageItem } from '#db/messages.ts';
import { getServiceItem } from '#db/services.ts';
import { automatedMessage, conversationLine } from '../conversations/conversation-lines.ts';
import { fail } from '../errors.ts';
import type { Ports } from '../ports.ts';
import type { AccountSession } from '../session.ts';
import { loadContact, replaceContact } from './contacts.ts';
import { presentContact } from './present-contact.ts';

/** The system lines the conversation shows for a change made by the customer's word. */
export const optOutLines = {
  out: (word: string) => `Contato descadastrado de campanhas (enviou "${word}")`,
  in: (word: string) => `Contato voltou a receber campanhas (enviou "${word}")`,
} as const;

/**
 * What a customer's message changes about campaigns, written with the message: opting out (when not
 * already out) or back in (only when out, so a 'voltar' typed in a menu does nothing else), a
 * system line, and the confirmation as an automated message while it is switched on. A repeated
 * opt-out keeps the first date and confirms again. Null when the message is no such word.
 */
export function optOutOnInbound(
  ports: Ports,
  contact: ContactItem,
  text: string,
  settings: OptOutSettings,
  atMs: number,
): { changes: Partial<ContactFields>; lines: MessageItem[] } | null {
  const intent = optOutIntent(text, settings);
  if (!intent) return null;
  const out = Boolean(contact.optedOutAt);
  if (intent.kind === 'in' && !out) return null;
  const { confirmation } = settings;
  const lines: MessageItem[] = [];
  let changes: Partial<ContactFields> = {};
  if (intent.kind === 'out' && !out) {
    changes = { optedOutAt: new Date(atMs).toISOString(), optedOutWord: intent.word };
    lines.push(conversationLine(ports, contact, 'system', optOutLines.out(intent.word), null, atMs));
  } else if (intent.kind === 'in') {
    changes = { optedOutAt: null, optedOutWord: null };
    lines.push(conversationLine(ports, contact, 'system', optOutLines.in(intent.word), null, atMs));
  }
  if (confirmation.enabled) {
    const reply = fillAutomationText(intent.kind === 'out' ? confirmation.optOutText : confirmation.optInText, {
      contact: { name: contact.name },
      department: contact.department ?? null,
      protocol: contact.conversationStats?.protocol ?? null,
      agent: contact.user ?? null,
    });
    lines.push(automatedMessage(ports, contact, reply, intent.kind === 'out' ? 'opt_out' : 'opt_in', atMs + 1));
  }
  return { changes, lines };
}

/** An admin clears a contact's opt-out (it receives campaigns again); docs/product.md#roles-and-permissions. */
export async function clearContactOptOut(ports: Ports, session: AccountSession, id: string): Promise<Contact> {
  if (!session.user.isAdmin) throw fail.forbidden();
  const current = await loadContact(ports, session.accountId, id);
  const next = current.optedOutAt ? await replaceContact(ports, current, { optedOutAt: null, optedOutWord: null }) : current;
  return presentContact(next, await getServiceItem(ports.table, next.accountId, next.serviceId), ports.storage.downloadUrl);
}
