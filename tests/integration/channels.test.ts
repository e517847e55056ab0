/**
 * The channel boundary: the generic worker reconciles any adapter that holds sessions (here a test
 * adapter standing in for a socket channel), sessions report through the port, and one inbound
 * message reads each item of the table once.
 */
import { describe, expect, it } from 'vitest';
import { writeServiceStatus } from '#db/services.ts';
import type { ChannelAdapter, SessionContext } from '#domain/channels/port.ts';
import { channelRegistry } from '#domain/channels/registry.ts';
import { inboundSink } from '#domain/channels/inbound-sink.ts';
import type { Ports } from '#domain/ports.ts';
import { startChannelWorker } from '#connectors/worker.ts';
import { call, proTeam } from './api.ts';
import { inboxTeam } from './inbox-setup.ts';
import { eventually, workerPorts, tellChanged } from './worker.ts';

/** A socket-like adapter: opens a session per run and remembers what it was asked. */
function socketAdapter(mine: Set<string>) {
  const opened: SessionContext[] = [];
  const closed: string[] = [];
  const adapter: ChannelAdapter = {
    type: 'whatsapp',
    send: async () => ({ channelMessageId: 'never' }),
    sessions: {
      wants: (connection) => 'id' in connection && mine.has((connection as { id: string }).id),
      open(context) {
        opened.push(context);
        return { stop: async () => void closed.push(context.run.runId) };
      },
    },
  };
  return { adapter, opened, closed };
}

/** The stream record of a connection item as it is now in the table. */
describe('the channel worker', () => {
  it('opens a session for a connection that should run, replaces it on a new run and closes it on stop; the session reports through the port', async () => {
    const { owner } = await proTeam();
    const created = await call('POST', '/services', { token: owner.token, body: { name: 'Zap', type: 'whatsapp' } });
    const serviceId = created.body.id as string;
    const fake = socketAdapter(new Set([serviceId]));
    const ports = { ...workerPorts(), channels: channelRegistry([fake.adapter]) };
    const worker = await startChannelWorker(ports);
    try {
      const service = { accountId: owner.accountId, id: serviceId, channelType: 'whatsapp' as const };
      await writeServiceStatus(ports.table, service, { status: 'starting', runId: 'run-1', now: new Date().toISOString() });
      await tellChanged(worker, owner.accountId, serviceId);
      await eventually(async () => fake.opened.length === 1);
      const session = fake.opened[0]!;
      expect(session.run).toMatchObject({ accountId: owner.accountId, serviceId, type: 'whatsapp', runId: 'run-1', token: null });

      expect(await session.report.pairing('data:image/png;base64,AAAA')).toBe(true);
      const onQr = await call('GET', `/services/${serviceId}`, { token: owner.token });
      expect(onQr.body).toMatchObject({ status: 'isOnQrCode', data: { qrCode: 'data:image/png;base64,AAAA' } });
      expect(await session.report.connected()).toBe(true);
      expect((await call('GET', `/services/${serviceId}`, { token: owner.token })).body).toMatchObject({
        status: 'connected',
        connected: true,
        data: { qrCode: null },
      });

      // Handed over through the sink, an inbound message lands in the inbox.
      expect(
        await session.inbound.message({
          channelMessageId: `sock-${Date.now()}`,
          chat: { idFromService: '5511912345678@s.whatsapp.net', name: 'Cliente do Socket', isGroup: false },
          isFromMe: false,
          type: 'text',
          text: 'Olá pelo socket',
          timestamp: new Date().toISOString(),
        }),
      ).toBe(true);
      const listed = await call('GET', `/contacts?query=${encodeURIComponent(JSON.stringify({ where: { serviceId } }))}`, { token: owner.token });
      expect(listed.body.data[0]).toMatchObject({ name: 'Cliente do Socket', lastMessage: { text: 'Olá pelo socket' } });

      // A restart is a new run: the old session closes, a new one opens; the old run's reports change nothing.
      await writeServiceStatus(ports.table, service, { status: 'starting', runId: 'run-2', now: new Date().toISOString() });
      await tellChanged(worker, owner.accountId, serviceId);
      await eventually(async () => fake.opened.length === 2);
      expect(fake.closed).toEqual(['run-1']);
      expect(await session.report.connected()).toBe(false);
      expect((await call('GET', `/services/${serviceId}`, { token: owner.token })).body.status).toBe('starting');

      // 'Desligar' writes disconnected: the session closes.
      await writeServiceStatus(ports.table, service, { status: 'disconnected', now: new Date().toISOString() });
      await tellChanged(worker, owner.accountId, serviceId);
      await eventually(async () => fake.closed.length === 2);
      expect(worker.sessions).toBe(0);
    } finally {
      await worker.stop();
    }
  });

  it('resumes the sessions of connections that should run when it starts again', async () => {
    const { owner } = await proTeam();
    const created = await call('POST', '/services', { token: owner.token, body: { name: 'Zap', type: 'whatsapp' } });
    const serviceId = created.body.id as string;
    const base = workerPorts();
    await writeServiceStatus(
      base.table,
      { accountId: owner.accountId, id: serviceId, channelType: 'whatsapp' },
      { status: 'connected', runId: 'run-9', now: new Date().toISOString() },
    );
    const fake = socketAdapter(new Set([serviceId]));
    const worker = await startChannelWorker({ ...base, channels: channelRegistry([fake.adapter]) });
    try {
      await eventually(async () => fake.opened.length === 1);
      expect(fake.opened[0]!.run.runId).toBe('run-9');
    } finally {
      await worker.stop();
    }
    expect(fake.closed).toEqual(['run-9']);
  });
});

/** Ports whose table counts every item read, by sort-key kind. */
function countingPorts(): { ports: Ports; reads: () => string[]; reset: () => void } {
  const base = workerPorts();
  let reads: string[] = [];
  const doc = new Proxy(base.table.doc, {
    get(target, prop, receiver) {
      if (prop !== 'send') return Reflect.get(target, prop, receiver);
      return (command: { constructor: { name: string }; input: { Key?: { sk: string }; KeyConditionExpression?: string } }) => {
        if (command.constructor.name === 'GetCommand') reads.push(command.input.Key!.sk.replace(/#.*/, ''));
        if (command.constructor.name === 'QueryCommand') reads.push(`query:${command.input.KeyConditionExpression}`);
        return (target.send as (c: unknown) => Promise<unknown>)(command);
      };
    },
  });
  return {
    ports: { ...base, table: { ...base.table, doc } },
    reads: () => reads,
    reset: () => {
      reads = [];
    },
  };
}

describe('an inbound message', () => {
  it('reads each item once: its guard, the contact guard and the contact, for a reply the quoted message, and the automations once a few seconds', async () => {
    const { owner, contact } = await inboxTeam();
    const { ports, reads, reset } = countingPorts();
    const sink = inboundSink(ports, { accountId: owner.accountId, serviceId: contact.serviceId });
    const chat = { idFromService: contact.idFromService, name: contact.name, isGroup: false };
    const first = `once-${Date.now()}`;
    expect(await sink.message({ channelMessageId: first, chat, isFromMe: false, type: 'text', text: 'Primeira', timestamp: new Date().toISOString() })).toBe(
      true,
    );
    // And, the first time a few seconds, whether the account runs automations (its automations and
    // the connection's menu: two settings documents, kept by the process for automationContextTtlMs).
    expect(reads().sort()).toEqual(['CHANNEL-CONTACT', 'CHANNEL-MSG', 'CONTACT', 'SETTING', 'SETTING']);

    reset();
    await sink.message({
      channelMessageId: `${first}-r`,
      chat,
      isFromMe: false,
      type: 'text',
      text: 'Resposta',
      replyToChannelMessageId: first,
      timestamp: new Date().toISOString(),
    });
    expect(reads().sort()).toEqual(['CHANNEL-CONTACT', 'CHANNEL-MSG', 'CHANNEL-MSG', 'CONTACT', 'MSG']);

    // A redelivery reads the guard and nothing else, and asks for no media.
    reset();
    let loaded = 0;
    const media = {
      load: async () => {
        loaded++;
        return null;
      },
      unavailableText: 'mídia indisponível',
    };
    expect(await sink.message({ channelMessageId: first, chat, isFromMe: false, type: 'image', text: '', media, timestamp: new Date().toISOString() })).toBe(
      false,
    );
    expect(reads()).toEqual(['CHANNEL-MSG']);
    expect(loaded).toBe(0);
  });

  it('from a new sender fetches the picture once, when the contact is made; media that cannot be had leaves its text', async () => {
    const { owner, service } = await inboxTeam();
    const { ports, reads } = countingPorts();
    const sink = inboundSink(ports, { accountId: owner.accountId, serviceId: service.id });
    let pictures = 0;
    const chat = {
      idFromService: `5521900${Date.now() % 1_000_000}@s.whatsapp.net`,
      name: 'Nova Pessoa',
      isGroup: false,
      avatar: async () => {
        pictures++;
        return null;
      },
    };
    const media = { load: async () => null, unavailableText: 'mídia indisponível' };
    await sink.message({ channelMessageId: `new-${Date.now()}`, chat, isFromMe: false, type: 'image', text: '', media, timestamp: new Date().toISOString() });
    await sink.message({ channelMessageId: `new2-${Date.now()}`, chat, isFromMe: false, type: 'text', text: 'De novo', timestamp: new Date().toISOString() });
    expect(pictures).toBe(1);
    expect(reads().filter((r) => r === 'ACCOUNT')).toHaveLength(1);
    const listed = await call('GET', `/contacts?query=${encodeURIComponent(JSON.stringify({ where: { idFromService: chat.idFromService } }))}`, {
      token: owner.token,
    });
    const created = listed.body.data[0];
    const messages = await call('GET', `/messages?query=${encodeURIComponent(JSON.stringify({ where: { contactId: created.id } }))}`, { token: owner.token });
    expect(messages.body.data.map((m: { text: string; type: string }) => [m.text, m.type])).toEqual([
      ['De novo', 'text'],
      ['mídia indisponível', 'text'],
    ]);
  });

  it('reactions keep one per reactor, the latest wins, and an empty one takes it away; a deletion marks the message deleted', async () => {
    const { owner, contact } = await inboxTeam();
    const ports = workerPorts();
    const sink = inboundSink(ports, { accountId: owner.accountId, serviceId: contact.serviceId });
    const id = `react-${Date.now()}`;
    await sink.message({
      channelMessageId: id,
      chat: { idFromService: contact.idFromService, name: contact.name, isGroup: false },
      isFromMe: false,
      type: 'text',
      text: 'Chegou?',
      timestamp: new Date().toISOString(),
    });
    const { messageByChannelId } = await import('#db/messages.ts');
    const at = (s: number) => new Date(Date.now() + s * 1000).toISOString();
    await sink.reaction({ channelMessageId: id, reactorId: 'me', fromMe: true, emoji: '👍', timestamp: at(1) });
    await sink.reaction({ channelMessageId: id, reactorId: 'me', fromMe: true, emoji: '❤️', timestamp: at(3) });
    await sink.reaction({ channelMessageId: id, reactorId: 'me', fromMe: true, emoji: '😮', timestamp: at(2) });
    await sink.reaction({ channelMessageId: id, reactorId: contact.idFromService, fromMe: false, emoji: '🙏', timestamp: at(1) });
    let stored = await messageByChannelId(ports.table, owner.accountId, contact.serviceId, id);
    expect(Object.fromEntries(Object.entries(stored!.reactions!).map(([who, r]) => [who, r.emoji]))).toEqual({ me: '❤️', [contact.idFromService]: '🙏' });
    await sink.reaction({ channelMessageId: id, reactorId: 'me', fromMe: true, emoji: '', timestamp: at(4) });
    stored = await messageByChannelId(ports.table, owner.accountId, contact.serviceId, id);
    expect(Object.keys(stored!.reactions!)).toEqual([contact.idFromService]);

    await sink.deletion({ channelMessageId: id });
    stored = await messageByChannelId(ports.table, owner.accountId, contact.serviceId, id);
    expect(stored!.ack).toBe(-1);
  });
});
