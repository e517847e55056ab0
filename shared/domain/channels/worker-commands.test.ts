/** Which table changes become `changed` commands, and the commands' deduplication ids. */
import { describe, expect, it } from 'vitest';
import { changedCommandOf, commandDeduplicationId, workerCommandSchema } from './worker-commands.ts';
import type { ChannelAdapter } from './port.ts';
import { channelRegistry } from './registry.ts';

const holding: ChannelAdapter = {
  type: 'whatsapp',
  send: async () => ({ channelMessageId: 'x' }),
  sessions: { wants: () => true, open: () => ({ stop: async () => {} }) },
};
const plain: ChannelAdapter = { type: 'telegram', send: async () => ({ channelMessageId: 'x' }) };
const channels = channelRegistry([holding, plain]);
const service = {
  type: 'Service',
  id: 'S1',
  accountId: 'A1',
  channelType: 'whatsapp',
  status: 'connected',
  runId: 'R1',
  tokenSealed: null,
  name: 'Zap',
  qrCode: null,
};

describe('changed commands', () => {
  it('a created, removed, started or restarted connection of a session-holding channel becomes one', () => {
    const expected = { kind: 'changed', accountId: 'A1', serviceId: 'S1', change: '42' };
    expect(changedCommandOf(channels, { next: service, sequence: '42' })).toEqual(expected);
    expect(changedCommandOf(channels, { previous: service, sequence: '42' })).toEqual(expected);
    expect(changedCommandOf(channels, { previous: service, next: { ...service, status: 'disconnected' }, sequence: '42' })).toEqual(expected);
    expect(changedCommandOf(channels, { previous: service, next: { ...service, runId: 'R2' }, sequence: '42' })).toEqual(expected);
  });

  it('a change the session does not depend on (name, QR code), another item, or a channel without sessions does not', () => {
    expect(changedCommandOf(channels, { previous: service, next: { ...service, name: 'Outro', qrCode: 'data:' }, sequence: '1' })).toBeNull();
    expect(changedCommandOf(channels, { next: { ...service, type: 'Message' }, sequence: '1' })).toBeNull();
    expect(changedCommandOf(channels, { next: { ...service, channelType: 'telegram' }, sequence: '1' })).toBeNull();
  });
});

describe('worker commands', () => {
  it('are checked by the schema and deduplicated by what they are about', () => {
    const send = { kind: 'send', request: { accountId: 'A1', serviceId: 'S1', contactId: 'C1', messageId: 'M1', sendAttempt: 2 } } as const;
    expect(workerCommandSchema.parse(send)).toEqual(send);
    expect(commandDeduplicationId(send)).toBe('send#M1#2');
    expect(commandDeduplicationId({ kind: 'logout', accountId: 'A1', serviceId: 'S1', channelType: 'whatsapp', requestId: 'Q1' })).toBe('logout#S1#Q1');
    expect(workerCommandSchema.safeParse({ kind: 'send', request: { accountId: 'A1' } }).success).toBe(false);
    expect(workerCommandSchema.safeParse({ kind: 'reboot', accountId: 'A1', serviceId: 'S1' }).success).toBe(false);
  });
});
