import { describe, expect, it } from 'vitest';
import { ack } from '#contracts/messages.ts';
import { ackOfStatus, foldAcks, nextCloudAck } from './acks.ts';

const of = (...statuses: string[]) => statuses.map((s) => ackOfStatus(s)!);

describe('ackOfStatus', () => {
  it('maps Meta statuses to the product acks and ignores others', () => {
    expect(of('sent', 'delivered', 'read', 'played', 'failed')).toEqual([1, 2, 3, 4, -2]);
    expect(ackOfStatus('deleted')).toBeNull();
    expect(ackOfStatus('warning')).toBeNull();
    expect(ackOfStatus('constructor')).toBeNull();
  });
});

describe('nextCloudAck: acks only move forward', () => {
  it('ends at read whatever order sent, delivered and read arrive in', () => {
    const orders = [
      ['sent', 'delivered', 'read'],
      ['read', 'sent', 'delivered'],
      ['delivered', 'read', 'sent'],
      ['read', 'delivered', 'sent'],
    ];
    for (const order of orders) expect(foldAcks(of(...order))).toBe(ack.read);
  });

  it('keeps a failure when a late sent arrives after it', () => {
    expect(foldAcks(of('failed', 'sent'))).toBe(ack.error);
    expect(foldAcks(of('sent', 'failed'))).toBe(ack.error);
  });

  it('does not turn a delivered or read message into a failure', () => {
    expect(nextCloudAck(ack.delivered, ack.error)).toBe(ack.delivered);
    expect(nextCloudAck(ack.read, ack.error)).toBe(ack.read);
    expect(foldAcks(of('read', 'failed'))).toBe(ack.read);
  });

  it('lets a delivery reported after a failure win (Meta delivered it after all)', () => {
    expect(nextCloudAck(ack.error, ack.delivered)).toBe(ack.delivered);
  });

  it('ignores a duplicate status and keeps a deleted message deleted', () => {
    expect(foldAcks(of('delivered', 'delivered'), ack.sent)).toBe(ack.delivered);
    expect(nextCloudAck(ack.deleted, ack.read)).toBe(ack.deleted);
  });

  it('starts from what the message held', () => {
    expect(foldAcks(of('sent'), ack.read)).toBe(ack.read);
    expect(foldAcks([], ack.delivered)).toBe(ack.delivered);
  });
});
