/**
 * Calls ringing on the connection's number, as Baileys reports them (the `call` event, from
 * `handleCall` in Socket/messages-recv.js): one event per call stanza, each with the call's id
 * and status. A call is handed to the domain once, at its `offer` (ADR-0220):
 * - the same offer may come more than once (WhatsApp sends `offer_notice` and `offer` stanzas, which
 *   Baileys both reports as 'offer'; an offline batch replays it), and the call's later stanzas
 *   (ringing, terminate, reject…) come under the same id: the session keeps the ids it handled, and
 *   the domain records a call id once (a second worker, a restart);
 * - group calls are left alone (never rejected, no line): Baileys marks their offer `isGroup` or
 *   `groupJid`, and upserts a call message in the group itself;
 * - the caller is `from`, which may be a `@lid` id; the number comes from the offer's `callerPn`
 *   or Baileys' LID store, as a message's sender does (jids.ts);
 * - rejecting is `rejectCall(id, from)` with the `from` the offer gave (Baileys sends it back as
 *   the reject's `to` and `call-creator`), handed to the domain, which runs it where the account
 *   rejects calls before writing the line: a rejection Baileys fails (its query answered 'Connection
 *   Closed' or 'Timed Out') is logged here and the line says so.
 */
import { isJidGroup, type WACallEvent } from 'baileys';
import type { InboundSink } from '#domain/channels/port.ts';
import { brazilianVariant, personOf, phoneOf, type PnForLid } from './jids.ts';
import type { WhatsAppSocket } from './socket.ts';

/** Whether a call event is the offer of a call from one person (not a group call). */
export function isPersonalOffer(call: WACallEvent): boolean {
  if (call.status !== 'offer' || call.isGroup || call.groupJid) return false;
  return !isJidGroup(call.chatId) && !isJidGroup(call.from);
}

/** What the session gives a call's handling. */
export interface CallContext {
  sink: InboundSink;
  socket: Pick<WhatsAppSocket, 'rejectCall'>;
  pnForLid: PnForLid;
  avatar?: (jid: string) => Promise<string | null>;
}

/** Baileys' `callerPn` (the offer's `caller_pn`) as a JID: a bare number gets the user server. */
const callerJid = (pn: string | undefined) => (pn ? (pn.includes('@') ? pn : `${pn}@s.whatsapp.net`) : null);

/**
 * Records a personal call's offer in the caller's conversation, rejected when the domain says so.
 * Answers whether it was rejected.
 */
export async function handleCall(context: CallContext, call: WACallEvent): Promise<boolean> {
  if (!context.sink.call) return false;
  const person = await personOf(call.from, callerJid(call.callerPn), context.pnForLid);
  const variant = brazilianVariant(person.id);
  const aliases = variant ? [...person.aliases, variant] : person.aliases;
  const { avatar } = context;
  const reject = async () => {
    try {
      await context.socket.rejectCall(call.id, call.from);
    } catch (error) {
      console.warn(`call ${call.id}: rejecting it failed`, error);
      throw error;
    }
  };
  const outcome = await context.sink.call(
    {
      callId: call.id,
      chat: {
        idFromService: person.id,
        ...(aliases.length ? { aliases } : {}),
        name: '',
        isGroup: false,
        phoneNumber: phoneOf(person.id),
        ...(avatar ? { avatar: () => avatar(person.id) } : {}),
      },
      isVideo: Boolean(call.isVideo),
      timestamp: new Date(call.date).toISOString(),
    },
    reject,
  );
  return outcome?.rejected ?? false;
}
