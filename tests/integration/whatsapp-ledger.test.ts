/**
 * The ledger of raw WhatsApp messages in the runtime's table: real Baileys messages (Buffers,
 * protobuf times) come back as they were written, in the order they were received, with a TTL of
 * 7 days, and a message marked done is gone.
 */
import { describe, expect, it } from 'vitest';
import { ulid } from 'ulid';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { proto, type WAMessage } from 'baileys';
import { keys } from '#db/keys.ts';
import { ledgerTtlSeconds, tableLedger } from '#connectors/whatsapp/ledger.ts';
import { workerPorts } from './worker.ts';

const message = (id: string, object: Record<string, unknown>) =>
  proto.WebMessageInfo.fromObject({
    key: { remoteJid: '5511912345678@s.whatsapp.net', fromMe: false, id },
    messageTimestamp: 1_767_225_600,
    ...object,
  }) as WAMessage;

describe("WhatsApp's ledger of raw inbound messages in the table", () => {
  it('keeps messages as Baileys gave them, in arrival order, forgetting them after 7 days or once done', async () => {
    const ports = workerPorts();
    const connection = { accountId: ulid(), serviceId: ulid() };
    const ledger = tableLedger(ports.table);
    const image = message('ZZZ-FIRST', { message: { imageMessage: { caption: 'foto', mediaKey: Buffer.alloc(32, 7), fileLength: 12345 } } });
    // Ids that sort before the first: the order is the arrival's, not the ids'.
    await ledger.put(connection, image);
    await ledger.put(connection, message('AAA-SECOND', { message: { conversation: 'Oi' } }));
    await ledger.put(connection, message('MMM-THIRD', { message: { conversation: 'Tudo bem?' } }));

    const pending = await ledger.pending(connection);
    expect(pending.map((m) => m.key.id)).toEqual(['ZZZ-FIRST', 'AAA-SECOND', 'MMM-THIRD']);
    expect(Buffer.from(pending[0]!.message!.imageMessage!.mediaKey!)).toEqual(Buffer.alloc(32, 7));
    expect(Number(pending[0]!.messageTimestamp)).toBe(1_767_225_600);
    expect(pending[0]).toBeInstanceOf(proto.WebMessageInfo);

    const { Item } = await ports.table.doc.send(
      new GetCommand({
        TableName: ports.table.name,
        Key: keys.connectionRecord(connection.accountId, connection.serviceId, 'whatsapp', 'LEDGER', 'ZZZ-FIRST'),
      }),
    );
    expect(Item!.ttl - Math.floor(Date.now() / 1000)).toBeGreaterThan(ledgerTtlSeconds - 60);
    expect(Item!.ttl - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(ledgerTtlSeconds);

    await ledger.done(connection, 'AAA-SECOND');
    expect((await ledger.pending(connection)).map((m) => m.key.id)).toEqual(['ZZZ-FIRST', 'MMM-THIRD']);
  });
});
