/**
 * Signed messages (docs/product.md#team-inbox, ADR-0219): with 'Assinar mensagens
 * com o nome do atendente' on, a person's message reaches the customer under their name. Whether a
 * message is signed is decided when it is sent (`signsMessages`) and kept on it (`signed`), so every
 * attempt signs it alike; the name line is added at dispatch (`signedText`), so the conversation
 * shows the text as typed.
 */
import type { ServiceType } from '#contracts/services.ts';
import type { Ports } from '../ports.ts';
import type { AccountSession } from '../session.ts';
import { automationSettingsOf } from '../automations/automation-context.ts';

/**
 * The text as the channel gets it: the name on a line of its own before it. WhatsApp (both
 * connections) renders `*...*` bold, so the name goes bold there; Telegram's messages go without a
 * parse mode (connectors/telegram/send.ts), so the line is plain. Asterisks in a name would break
 * WhatsApp's bold and are left out. An empty text (a file with no caption) stays empty.
 */
export function signedText(channel: ServiceType, name: string, text: string): string {
  const author = name.trim();
  if (!text || !author) return text;
  if (channel === 'telegram') return `${author}:\n${text}`;
  const bold = author.replaceAll('*', '').trim();
  return bold ? `*${bold}:*\n${text}` : text;
}

/** Whether what this person sends now goes signed: the account signs messages and they did not opt out ('Não assinar minhas mensagens'). */
export async function signsMessages(
  ports: Ports,
  session: Pick<AccountSession, 'accountId'> & { user: Pick<AccountSession['user'], 'skipSignature'> },
): Promise<boolean> {
  if (session.user.skipSignature) return false;
  // Kept a few seconds per process, as the automations' context is (automationContextTtlMs).
  const settings = await automationSettingsOf(ports, session.accountId);
  return settings.signMessages === true;
}
