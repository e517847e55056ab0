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

/** Acks in `messages.update`; other updates there (edits, revokes, polls) are not followed. */
export function acksOfUpdates(updates: readonly WAMessageUpdate[]): InboundAck[] {
  const found: InboundAck[] = [];
  for (const { key, update } of updates) {
    const code = ackOfStatus(update.status);
    if (key.fromMe && key.id && code !== null) found.push({ channelMessageId: key.id, ack: code });
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
