import { describe, expect, it } from 'vitest';
import { customerWindow } from './customer-window.ts';

const lastInboundAt = '2026-11-26T15:00:00.000Z';
const cloud = (last: string | null) => ({ lastInboundAt: last, service: { type: 'whatsapp_cloud' as const } });
const at = (iso: string) => new Date(iso);

describe('customerWindow', () => {
  it('is open up to 24 hours after the last inbound message, with its closing moment', () => {
    expect(customerWindow(cloud(lastInboundAt), at('2026-11-26T15:00:01.000Z'))).toEqual({ kind: 'open', closesAt: '2026-11-27T15:00:00.000Z' });
    expect(customerWindow(cloud(lastInboundAt), at('2026-11-27T14:59:00.000Z')).kind).toBe('open'); // 23:59 later
    expect(customerWindow(cloud(lastInboundAt), at('2026-11-27T15:00:00.000Z')).kind).toBe('open'); // exactly 24:00
  });

  it('is closed one second past 24 hours, saying since when the customer has not written', () => {
    expect(customerWindow(cloud(lastInboundAt), at('2026-11-27T15:00:01.000Z'))).toEqual({
      kind: 'closed',
      lastInboundAt,
      closedAt: '2026-11-27T15:00:00.000Z',
    });
    // A clock given as epoch ms reads the same.
    expect(customerWindow(cloud(lastInboundAt), Date.parse('2026-11-27T15:00:01.000Z')).kind).toBe('closed');
  });

  it('is closed when the customer never wrote on the number', () => {
    expect(customerWindow(cloud(null), at('2026-11-27T12:00:00.000Z'))).toEqual({ kind: 'closed', lastInboundAt: null, closedAt: null });
    expect(customerWindow({ lastInboundAt: undefined, service: { type: 'whatsapp_cloud' } }, at('2026-11-27T12:00:00.000Z')).kind).toBe('closed');
  });

  it('does not exist for QR WhatsApp, Telegram or a contact without its connection', () => {
    const now = at('2027-01-01T00:00:00.000Z');
    expect(customerWindow({ lastInboundAt: null, service: { type: 'whatsapp' } }, now)).toEqual({ kind: 'none' });
    expect(customerWindow({ lastInboundAt, service: { type: 'telegram' } }, now)).toEqual({ kind: 'none' });
    expect(customerWindow({ lastInboundAt: null, service: null }, now)).toEqual({ kind: 'none' });
  });
});
