/**
 * Statuses of the messages we sent through the Cloud API (`statuses[]` of the `messages` field) as
 * the product's acks: sent 1, delivered 2, read 3, played 4 (a voice note played), failed -2 with
 * Meta's error code and its pt-BR meaning. Meta sends each status in its own call and does not
 * promise their order, so a `read` may come before its `delivered` and a late `sent` after a
 * `failed`; `nextCloudAck` is the forward-only rule (see
 * ADR-0207).
 */
import { ack } from '#contracts/messages.ts';

/** Meta's status names and the ack each stands for; other names (a `deleted` of older versions, `warning`) are no ack. */
const ackByStatus: Record<string, number> = {
  sent: ack.sent,
  delivered: ack.delivered,
  read: ack.read,
  played: ack.played,
  failed: ack.error,
};

/** A status name as the product's ack; null for one that is no ack. */
export function ackOfStatus(status: string): number | null {
  return Object.hasOwn(ackByStatus, status) ? ackByStatus[status]! : null;
}

/**
 * Where a message stands, for the forward-only rule: sending < sent < failed < delivered < read <
 * played. A failure outranks `sent` (a late `sent` does not revive a failed message) but not
 * `delivered` or later: Meta's `failed` means it could not send or deliver, which a delivery
 * already reported contradicts, so a late or stray failure never turns a delivered bubble red.
 */
function rank(value: number): number {
  if (value === ack.error) return 1.5;
  return value;
}

/**
 * The ack a message moves to when `incoming` arrives while it stands at `current`: forward only.
 * A deleted message (-1, deleted in the inbox) stays deleted.
 */
export function nextCloudAck(current: number, incoming: number): number {
  if (current === ack.deleted) return current;
  if (incoming === ack.deleted) return incoming;
  return rank(incoming) > rank(current) ? incoming : current;
}

/**
 * Folds statuses of one message received together (one delivery, or a batch of the queue) into
 * the ack it ends at, from `start` (what the message held before; `sending` when not known).
 */
export function foldAcks(incoming: readonly number[], start: number = ack.sending): number {
  return incoming.reduce(nextCloudAck, start);
}
