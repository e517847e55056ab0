/**
 * Is a number on WhatsApp, and under which ids? Asked through the connection's live socket when a
 * contact is made by hand (`checkThrough`, the worker's `check` command) and again right before a
 * send to a phone-number JID, so a contact made by hand (`<digits>@s.whatsapp.net`, typed by a
 * person) is checked before anyone writes to it (ADR-0180, shared/domain/contacts/contact-check.ts).
 *
 * Baileys' `onWhatsApp` (a USync contact query) answers `[{ jid, exists: true }]` for a number on
 * WhatsApp, under the JID WhatsApp keeps (a Brazilian mobile registered before the ninth digit
 * answers without it), and nothing for a number that is not. In 7.0.0-rc14 it no longer answers a
 * LID (it did up to rc4, Baileys #1768), so the LID is what Baileys' LID store already learnt
 * (its `lid-mapping` keys; no further query: a later message or `lid-mapping.update` brings it).
 *
 * No Baileys code is imported here: sends run in the worker before any session loaded Baileys.
 */
import { ChannelSendError, type SentMessage, type SessionHolding } from '#domain/channels/port.ts';
import { notLiveText } from './adapter.ts';
import type { LiveConnections } from './live.ts';
import { Lru } from './lru.ts';
import type { WhatsAppSocket } from './socket.ts';

/** The reason a send to a number that is not on WhatsApp fails with (pt-BR, shown on the message). */
export const noWhatsAppText = 'Este número não tem WhatsApp.';

/** What the check answered: the number is on WhatsApp under `jid` (and `lid` when known), it is not, or WhatsApp did not answer in time. */
export type NumberCheck = { kind: 'on'; jid: string; lid: string | null } | { kind: 'absent' } | { kind: 'unknown' };

/** How long a check may take before the send goes on unchecked (the socket's own query timeout is 60 s). */
export const checkTimeoutMs = 10_000;
/** Numbers found on WhatsApp remembered per socket, so a conversation asks once per session; absent numbers are asked again. */
const remembered = 5_000;
const found = new WeakMap<WhatsAppSocket, Lru<{ jid: string; lid: string | null }>>();

const timedOut = Symbol('timed out');

async function within<T>(ms: number, work: Promise<T>): Promise<T | typeof timedOut> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([work, new Promise<typeof timedOut>((resolve) => (timer = setTimeout(() => resolve(timedOut), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/** `<user>[:device]@server` → `<user>@server`. */
const bare = (jid: string) => jid.replace(/:\d+@/, '@');

/** Whether a JID names a person by phone number (the ids a person can type; groups and `@lid` ids came from WhatsApp itself). */
export const isPhoneJid = (jid: string): boolean => jid.endsWith('@s.whatsapp.net');

/**
 * Checks a phone-number JID on WhatsApp. Other JIDs (groups, `@lid` ids) answer `on` as they are.
 * A failure or a check slower than `timeoutMs` answers `unknown`: the caller sends as before.
 */
export async function checkNumber(socket: WhatsAppSocket, jid: string, options: { timeoutMs?: number } = {}): Promise<NumberCheck> {
  if (!isPhoneJid(jid)) return { kind: 'on', jid, lid: null };
  const timeoutMs = options.timeoutMs ?? checkTimeoutMs;
  const known = found.get(socket)?.get(jid);
  if (known) return { kind: 'on', ...known };
  let answers: Awaited<ReturnType<WhatsAppSocket['onWhatsApp']>> | typeof timedOut;
  try {
    answers = await within(timeoutMs, socket.onWhatsApp(jid));
  } catch (error) {
    console.warn(`[whatsapp] could not check ${jid} on WhatsApp:`, (error as Error).message);
    return { kind: 'unknown' };
  }
  if (answers === timedOut || answers === undefined) return { kind: 'unknown' };
  const hit = answers.find((answer) => answer.exists && answer.jid);
  if (!hit) return { kind: 'absent' };
  const registered = bare(hit.jid);
  let lid: string | null = null;
  try {
    // What Baileys' LID store knows (its `lid-mapping` keys), not `getLIDForPN`, which asks WhatsApp once more for an unknown number.
    const user = registered.split('@')[0]!;
    const known = socket.authState ? (await socket.authState.keys.get('lid-mapping', [user]))[user] : undefined;
    lid = typeof known === 'string' && /^\d+$/.test(known) ? `${known}@lid` : null;
  } catch {
    // The LID is a bonus: the contact gets it from the first message that carries it.
  }
  const memory = found.get(socket) ?? new Lru<{ jid: string; lid: string | null }>(remembered);
  found.set(socket, memory);
  memory.set(jid, { jid: registered, lid });
  memory.set(registered, { jid: registered, lid });
  return { kind: 'on', jid: registered, lid };
}

/** What the contact should be known by after a check: the JID WhatsApp answered (when not the one asked) and its LID. */
export function recipientIds(asked: string, check: NumberCheck): Pick<SentMessage, 'recipient'> {
  if (check.kind !== 'on' || (check.jid === asked && !check.lid)) return {};
  const aliases = [...(check.jid !== asked ? [asked] : []), ...(check.lid ? [check.lid] : [])];
  return { recipient: { idFromService: check.jid, aliases, phoneNumber: check.jid.split('@')[0] ?? null } };
}

/** Checks a contact made by hand through the sockets of a registry (the worker adapter's), as its first send would. */
export const checkThrough =
  (sockets: LiveConnections): NonNullable<SessionHolding['checkContact']> =>
  async (connection, jid) => {
    const live = sockets.get(connection.serviceId);
    if (!live) throw new ChannelSendError(notLiveText, { retryAfterSeconds: 5 });
    const check = await checkNumber(live.socket, jid);
    return check.kind === 'on' ? { kind: 'on', ...recipientIds(jid, check) } : check;
  };
