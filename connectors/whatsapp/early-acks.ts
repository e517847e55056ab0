/**
 * Receipts that arrive before their message is stored. A message sent from the inbox gets its
 * WhatsApp id only when `sendMessage` answers, and the dispatcher writes that id afterwards; the
 * server's ack (and, on a fast phone, the delivery receipt) can reach the session first, when the
 * sink still finds no message with that id. Such acks are kept here, merged as the domain merges
 * them (`nextAck`), and tried again on a doubling delay (1 s, 2 s, 4 s ...) or at once when the
 * session hands over the message itself, until they apply or `keepMs` has passed. Bounded: past
 * `max` acks the oldest is dropped (a lost ack is corrected by the next one).
 */
import { ack as acks, nextAck } from '#contracts/messages.ts';
import type { InboundAck } from '#domain/channels/port.ts';

export interface EarlyAckOptions {
  /** How long an ack waits for its message. */
  keepMs: number;
  /** The first retry's delay, doubled after each. */
  firstRetryMs: number;
  /** The most acks kept at once. */
  max: number;
}

export const defaultEarlyAckOptions: EarlyAckOptions = { keepMs: 120_000, firstRetryMs: 1000, max: 1000 };

interface Waiting {
  ack: number;
  /** The reason of an error ack (463 ...), kept while the merged ack is still the error. */
  reason?: string | undefined;
  since: number;
  nextAt: number;
  delayMs: number;
}

/** A later ack of the same message merged into a kept one, as the domain merges them; an error keeps its reason. */
function merge(kept: Waiting, input: InboundAck): void {
  kept.ack = nextAck(kept.ack, input.ack);
  if (kept.ack !== acks.error) kept.reason = undefined;
  else if (input.ack === acks.error && input.reason) kept.reason = input.reason;
}

const ackOf = (channelMessageId: string, kept: Waiting): InboundAck => ({
  channelMessageId,
  ack: kept.ack,
  ...(kept.reason ? { reason: kept.reason } : {}),
});

export class EarlyAcks {
  private readonly waiting = new Map<string, Waiting>();

  constructor(private readonly options: EarlyAckOptions = defaultEarlyAckOptions) {}

  get size(): number {
    return this.waiting.size;
  }

  /** Keeps an ack whose message was not found; a later ack of the same message merges into it. */
  keep(input: InboundAck, now: number): void {
    const kept = this.waiting.get(input.channelMessageId);
    if (kept) {
      merge(kept, input);
      return;
    }
    if (this.waiting.size >= this.options.max) {
      const oldest = this.waiting.keys().next().value;
      if (oldest !== undefined) this.waiting.delete(oldest);
    }
    const delayMs = this.options.firstRetryMs;
    this.waiting.set(input.channelMessageId, { ack: input.ack, reason: input.reason, since: now, nextAt: now + delayMs, delayMs });
  }

  /** The kept ack of a message, taken out (its message was just handed over). */
  take(channelMessageId: string): InboundAck | null {
    const kept = this.waiting.get(channelMessageId);
    if (!kept) return null;
    this.waiting.delete(channelMessageId);
    return ackOf(channelMessageId, kept);
  }

  /**
   * The acks due for another try; each stays kept, but is not due again until `again` (it still
   * found nothing) reschedules it or `forget` (it applied) drops it. Expired ones are dropped.
   */
  due(now: number): InboundAck[] {
    const found: InboundAck[] = [];
    for (const [channelMessageId, kept] of this.waiting) {
      if (now - kept.since >= this.options.keepMs) {
        this.waiting.delete(channelMessageId);
        continue;
      }
      if (kept.nextAt > now) continue;
      kept.nextAt = Number.POSITIVE_INFINITY;
      found.push(ackOf(channelMessageId, kept));
    }
    return found;
  }

  /** An ack tried again that still found nothing: waits twice as long for the next try. */
  again(input: InboundAck, now: number): void {
    const kept = this.waiting.get(input.channelMessageId);
    if (!kept) {
      this.keep(input, now);
      return;
    }
    merge(kept, input);
    kept.delayMs *= 2;
    kept.nextAt = now + kept.delayMs;
  }

  /** An ack that applied, or that a newer call applied. */
  forget(channelMessageId: string): void {
    this.waiting.delete(channelMessageId);
  }
}
