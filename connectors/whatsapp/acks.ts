/**
 * Acks of the messages we sent (from the inbox or from the phone): Baileys' status updates
 * (`messages.update` with `update.status`, private chats) and per-member receipts
 * (`message-receipt.update`, groups) as the product's ack codes. The domain moves acks only
 * forward, so in a group the first member's receipt moves the message. Statuses of the customer's
 * own messages (read on another of our devices) are not acks of ours and are left alone.
 */
import { proto, type MessageUserReceiptUpdate, type WAMessageUpdate } from 'baileys';
import { ack } from '#contracts/messages.ts';
import type { InboundAck } from '#domain/channels/port.ts';

const Status = proto.WebMessageInfo.Status;

/**
 * Why WhatsApp refused a message it had taken (an ack with an error code; pt-BR, shown on the
 * bubble). 463 is what WhatsApp answers a first message it will not let through: the number is
 * restricted from starting chats, or the contact moved to a LID and the send went to the number
 * (Baileys #2683). Baileys does not send it again, and neither do we: each try counts as another
 * reach-out and can make the restriction worse.
 */
export function refusedReason(code: string): string {
  if (code === '463') {
    return 'O WhatsApp recusou esta mensagem (erro 463): este número pode estar impedido de iniciar conversas, ou o contato mudou de identificação no WhatsApp. Não reenvie em seguida: cada nova tentativa conta como um novo contato e pode agravar a restrição.';
  }
  return `O WhatsApp recusou esta mensagem (erro ${code}). Tente de novo mais tarde.`;
}

/** Baileys' message status as the product's ack; null for a status that is no ack (pending). */
export function ackOfStatus(status: number | null | undefined): number | null {
  switch (status) {
    case Status.ERROR:
      return ack.error;
    case Status.SERVER_ACK:
      return ack.sent;
    case Status.DELIVERY_ACK:
      return ack.delivered;
    case Status.READ:
      return ack.read;
    case Status.PLAYED:
      return ack.played;
    default:
      return null;
  }
}

/**
 * Acks in `messages.update`; other updates there (edits, revokes, polls) are not followed. An error
 * ack carries the code WhatsApp gave (Baileys' `handleBadAck` puts the ack node's `error` first in
 * `messageStubParameters`) as a pt-BR reason.
 */
export function acksOfUpdates(updates: readonly WAMessageUpdate[]): InboundAck[] {
  const found: InboundAck[] = [];
  for (const { key, update } of updates) {
    const code = ackOfStatus(update.status);
    if (!key.fromMe || !key.id || code === null) continue;
    const errorCode = code === ack.error ? update.messageStubParameters?.[0] : undefined;
    found.push({ channelMessageId: key.id, ack: code, ...(errorCode ? { reason: refusedReason(errorCode) } : {}) });
  }
  return found;
}

/** Acks in `message-receipt.update` (a group member received, read or played one of ours). */
export function acksOfReceipts(receipts: readonly MessageUserReceiptUpdate[]): InboundAck[] {
  const found: InboundAck[] = [];
  for (const { key, receipt } of receipts) {
    if (!key.fromMe || !key.id) continue;
    const code = receipt.playedTimestamp ? ack.played : receipt.readTimestamp ? ack.read : receipt.receiptTimestamp ? ack.delivered : null;
    if (code !== null) found.push({ channelMessageId: key.id, ack: code });
  }
  return found;
}
