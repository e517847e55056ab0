/**
 * The scheduled resume of stalled background jobs (shared/domain/stalled-jobs.ts), against dynalite
 * behind the local DynamoDB front and s3rver. The front's stream records reach the three job
 * consumers as the cloud delivers them: through the consumers' own filters (functions/streams/consumers.ts),
 * one record at a time in order, running the same domain step the handler runs. Switching delivery
 * off drops records, as a batch that exhausted its retries and went to the dead-letter queue: the
 * jobs written meanwhile are stalled. The resume moves on those whose last step is older than the
 * threshold, which then finish through their consumers; fresh ones are left alone, and two resumes
 * at once move a job only once.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { localS3Client } from '../support/local-bucket.ts';
import { BatchWriteCommand, DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import dynalite from 'dynalite';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactImportSettings } from '#contracts/contact-imports.ts';
import { outboxMailer } from '#lib/outbox-mailer.ts';
import { s3Storage } from '#lib/s3-storage.ts';
import { streamConsumers } from '#functions/streams/consumers.ts';
import { imagesOf } from '#functions/streams/stream-images.ts';
import { DynamoFront, type StreamRecord } from '../../infra/local/emulators/dynamo-front.ts';
import { passesFilters } from '../../infra/local/pollers/event-filter.ts';
import { accountDeletionItem, newDeletionStep } from '#db/account-deletions.ts';
import { putAccountExport } from '#db/account-exports.ts';
import { freshProgress, putContactImport, startContactImportPass } from '#db/contact-imports.ts';
import type { Table } from '#db/client.ts';
import { contactTombstoneStep } from '#db/contacts.ts';
import { entityTypes, exportObjectKey, importObjectKey, keys } from '#db/keys.ts';
import { createTableInput } from '#db/table-definition.ts';
import { writeTogether } from '#db/transaction.ts';
import { runDeletionStep } from '#domain/accounts/account-deletion.ts';
import { resumeAccountExports, runExportStep } from '#domain/accounts/account-export.ts';
import { runContactImportStep } from '#domain/contact-import/contact-import.ts';
import { runContactPurgeStep } from '#domain/contacts/contact-purge.ts';
import { stallAfterMs } from '#domain/job-staleness.ts';
import type { Ports } from '#domain/ports.ts';
import { resumeStalledJobs } from '#domain/stalled-jobs.ts';

let dir: string;
let db: Server;
let front: DynamoFront;
let s3: S3rver;
let table: Table;
let ports: Ports;

/** Whether stream records reach the consumers; off: they are dropped (the DLQ). */
let delivering = true;
const backlog: StreamRecord[] = [];
let draining: Promise<void> | null = null;
const failures: unknown[] = [];

const jobConsumers = streamConsumers.filter((c) => ['account-deletion', 'contact-purge', 'account-export', 'contact-import'].includes(c.name));

async function deliver(record: StreamRecord): Promise<void> {
  const next = imagesOf(record as unknown as DynamoDBRecord).next;
  for (const consumer of jobConsumers) {
    if (!next || !passesFilters(consumer.filters, record as never)) continue;
    const accountId = String(next.accountId);
    if (consumer.name === 'account-deletion') await runDeletionStep(ports, accountId);
    if (consumer.name === 'contact-purge') await runContactPurgeStep(ports, accountId, String(next.id));
    if (consumer.name === 'account-export') await runExportStep(ports, accountId, String(next.id));
    if (consumer.name === 'contact-import') await runContactImportStep(ports, accountId, String(next.id));
  }
}

function onRecord(record: StreamRecord): void {
  if (!delivering) return;
  backlog.push(record);
  draining ??= (async () => {
    while (backlog.length) {
      try {
        await deliver(backlog.shift()!);
      } catch (error) {
        failures.push(error);
      }
    }
    draining = null;
  })();
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'stalled-jobs-'));
  db = dynalite({ path: join(dir, 'dynamo'), createTableMs: 0 });
  await new Promise<void>((r) => db.listen(0, '127.0.0.1', () => r()));
  front = new DynamoFront({ backendUrl: `http://127.0.0.1:${(db.address() as AddressInfo).port}`, onRecord, sweepEveryMs: 3_600_000 });
  const client = new DynamoDBClient({ endpoint: await front.listen(), region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
  await client.send(new CreateTableCommand(createTableInput('stalled-jobs')));
  await new Promise((r) => setTimeout(r, 50));
  table = { name: 'stalled-jobs', doc: DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } }) };
  s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: join(dir, 's3'), configureBuckets: [{ name: 'media', configs: [] }] });
  const address = (await s3.run()) as AddressInfo;
  const storage = s3Storage('media', localS3Client(`http://127.0.0.1:${address.port}`));
  // What the three jobs use; an account without connections needs no vault, channel or queue.
  ports = { table, storage, mailer: outboxMailer(join(dir, 'outbox')), clock: () => new Date() } as unknown as Ports;
});

afterAll(async () => {
  await front.close();
  await s3.close();
  await new Promise<void>((r) => db.close(() => r()));
  rmSync(dir, { recursive: true, force: true });
});

async function eventually<T>(check: () => Promise<T | undefined | null | false>, ms = 20_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Lets every record already written reach (or, delivery off, miss) the consumers. */
async function settle(): Promise<void> {
  await new Promise((r) => setTimeout(r, 100));
  while (draining) await draining;
}

const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
const get = async (key: { pk: string; sk: string }) => (await table.doc.send(new GetCommand({ TableName: table.name, Key: key, ConsistentRead: true }))).Item;
const partition = async (pk: string) =>
  (await table.doc.send(new QueryCommand({ TableName: table.name, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk } }))).Items ?? [];

/** An account with two contacts, `messages` messages each (one carrying a file in the bucket). */
async function account(accountId: string, messages: number): Promise<string[]> {
  await table.doc.send(
    new PutCommand({ TableName: table.name, Item: { ...keys.account(accountId), type: entityTypes.account, id: accountId, name: `Loja ${accountId}` } }),
  );
  const contactIds = ['C1', 'C2'];
  for (const contactId of contactIds) {
    await table.doc.send(
      new PutCommand({
        TableName: table.name,
        Item: { ...keys.contact(accountId, contactId), type: entityTypes.contact, id: contactId, accountId, name: 'Cliente' },
      }),
    );
    const fileKey = `accounts/${accountId}/files/F-${contactId}/foto.jpg`;
    await ports.storage.put(fileKey, new TextEncoder().encode('foto'), 'image/jpeg');
    for (let i = 0; i < messages; i += 25) {
      const batch = Array.from({ length: Math.min(25, messages - i) }, (_, j) => {
        const id = `M${String(i + j).padStart(5, '0')}`;
        const file = i + j === 0 ? { file: { objectKey: fileKey } } : {};
        return {
          PutRequest: {
            Item: { ...keys.message(accountId, contactId, id), type: entityTypes.message, id, accountId, contactId, text: `mensagem ${id}`, ...file },
          },
        };
      });
      await table.doc.send(new BatchWriteCommand({ RequestItems: { [table.name]: batch } }));
    }
  }
  return contactIds;
}

function deletionJob(accountId: string, requestedAt: string) {
  return accountDeletionItem({
    accountId,
    accountName: `Loja ${accountId}`,
    ownerName: 'Dona',
    ownerEmail: `dona.${accountId.toLowerCase()}@example.com`,
    userIds: [],
    stripeCustomerId: null,
    accountCreatedAt: requestedAt,
    requestedAt,
  });
}

const mailsTo = (address: string) => {
  const outbox = join(dir, 'outbox');
  return readdirSync(outbox)
    .map((f) => JSON.parse(readFileSync(join(outbox, f), 'utf8')) as { to: string; subject: string })
    .filter((m) => m.to === address);
};

describe('the scheduled resume of stalled jobs', () => {
  it('moves on purges and exports whose last step is older than the threshold, which then finish; fresh ones are left alone', async () => {
    await account('A1', 30); // purged: its deletion request died after storing the job
    const [gone] = await account('A2', 450); // a contact deleted: its purge's records were dropped
    await account('A3', 30); // exported: its export's records were dropped
    await account('A4', 5); // fresh jobs of each kind
    const stale = ago(stallAfterMs + 60_000);

    delivering = false;
    await writeTogether(table, { job: newDeletionStep(deletionJob('A1', stale)) });
    await writeTogether(table, { tombstone: contactTombstoneStep('A2', gone!, stale, Math.floor(Date.now() / 1000) + 7 * 86_400, { avatarKey: null }) });
    const staleExport = await putAccountExport(table, { accountId: 'A3', id: 'X1', requestedBy: 'U1', now: stale });
    await writeTogether(table, { job: newDeletionStep(deletionJob('A4', ago(60_000))) });
    await writeTogether(table, { tombstone: contactTombstoneStep('A4', 'C1', ago(60_000), Math.floor(Date.now() / 1000) + 7 * 86_400, { avatarKey: null }) });
    await putAccountExport(table, { accountId: 'A4', id: 'X2', requestedBy: 'U1', now: ago(60_000) });
    await settle();
    delivering = true;

    // Nothing moves them: they are as written.
    expect(await get(keys.accountDeletion('A1'))).toMatchObject({ phase: 'requested', round: 0 });
    expect((await partition(keys.contactMessages('A2', gone!).pk)).length).toBe(450);

    expect(await resumeStalledJobs(ports)).toEqual({ accountDeletions: 1, contactPurges: 1, accountExports: 1, contactImports: 0 });

    // The account's purge runs to the end: the job goes, the owner is told, nothing of A1 is left.
    await eventually(async () => !(await get(keys.accountDeletion('A1'))));
    expect(mailsTo('dona.a1@example.com').map((m) => m.subject)).toEqual(['Sua conta no Conversa foi excluída']);
    expect(await partition(keys.accountPartition('A1').pk)).toEqual([]);
    expect(await partition(keys.contactMessages('A1', 'C1').pk)).toEqual([]);
    expect(await ports.storage.list('accounts/A1/', 10)).toEqual([]);
    // The contact's purge: its messages and file go, its tombstone loses the mark; the other contact keeps its messages.
    await eventually(async () => !(await get(keys.contactTombstone('A2', gone!)))?.purge);
    expect(await partition(keys.contactMessages('A2', gone!).pk)).toEqual([]);
    expect(await ports.storage.list(`accounts/A2/files/F-${gone}/`, 10)).toEqual([]);
    expect((await partition(keys.contactMessages('A2', 'C2').pk)).length).toBe(450);
    // The export: done, one archive of the account and its 60 messages, off the pending list.
    const done = await eventually(async () => {
      const item = await get(keys.accountExport('A3', 'X1'));
      return item?.status === 'done' ? item : null;
    });
    expect(done).toMatchObject({ lines: 1 + 2 + 60, objectKey: exportObjectKey('A3', 'X1', 'conversa-dados.jsonl') });
    expect(done.gsi1pk).toBeUndefined();
    expect(done.round).toBeGreaterThan(staleExport.round + 1);
    const archive = new TextDecoder().decode(await ports.storage.get(done.objectKey));
    expect(archive.trim().split('\n')).toHaveLength(63);
    expect(failures).toEqual([]);

    // The fresh jobs were not touched.
    expect(await get(keys.accountDeletion('A4'))).toMatchObject({ phase: 'requested', round: 0 });
    expect(await get(keys.contactTombstone('A4', 'C1'))).toMatchObject({ purge: true, purgeRound: 0 });
    expect(await get(keys.accountExport('A4', 'X2'))).toMatchObject({ status: 'running', round: 0 });
    expect(await resumeStalledJobs(ports)).toEqual({ accountDeletions: 0, contactPurges: 0, accountExports: 0, contactImports: 0 });

    // A restarted local runtime moves every running export on, however recent (the fresh one too).
    expect(await resumeAccountExports(ports)).toBe(1);
    await eventually(async () => (await get(keys.accountExport('A4', 'X2')))?.status === 'done');
  }, 60_000);

  it('moves a stalled job once when two resumes run at the same time', async () => {
    await account('B1', 5);
    delivering = false;
    await putAccountExport(table, { accountId: 'B1', id: 'X3', requestedBy: 'U1', now: ago(stallAfterMs + 1) });
    await writeTogether(table, { job: newDeletionStep(deletionJob('B1', ago(stallAfterMs + 1))) });
    const results = await Promise.all([resumeStalledJobs(ports), resumeStalledJobs(ports), resumeStalledJobs(ports)]);
    await settle();
    delivering = true;
    expect(results.reduce((sum, r) => sum + r.accountExports, 0)).toBe(1);
    expect(results.reduce((sum, r) => sum + r.accountDeletions, 0)).toBe(1);
    expect(await get(keys.accountExport('B1', 'X3'))).toMatchObject({ status: 'running', round: 1 });
    const job = await get(keys.accountDeletion('B1'));
    expect(job).toMatchObject({ phase: 'requested', round: 1 });
    // The move stamps the job: the next scheduled run finds it fresh.
    expect(Date.now() - Date.parse(job!.steppedAt)).toBeLessThan(stallAfterMs);
    expect(await resumeStalledJobs(ports)).toEqual({ accountDeletions: 0, contactPurges: 0, accountExports: 0, contactImports: 0 });
  });

  it('moves on a stalled contact import, whose check then reads the file to the end', async () => {
    await table.doc.send(new PutCommand({ TableName: table.name, Item: { ...keys.account('D1'), type: entityTypes.account, id: 'D1', name: 'Loja D1' } }));
    const csv = new TextEncoder().encode('nome;telefone\r\nAna;11987654321\r\nBia;123\r\n');
    const stale = ago(stallAfterMs + 60_000);
    const objectKey = importObjectKey('D1', 'I1', 'contatos.csv');
    await ports.storage.put(objectKey, csv, 'text/csv');
    delivering = false;
    const job = await putContactImport(table, { accountId: 'D1', id: 'I1', requestedBy: 'U1', fileName: 'c.csv', size: csv.length, objectKey, now: stale });
    const settings = contactImportSettings.parse({ serviceId: 'S1', mapping: ['name', 'phone'], dryRun: true });
    expect(await startContactImportPass(table, job, settings, { ...freshProgress, status: 'checking', room: 1000 }, stale)).toBe(true);
    await settle();
    delivering = true;
    expect(await get(keys.contactImport('D1', 'I1'))).toMatchObject({ status: 'checking', rows: 0, round: 1 });

    expect(await resumeStalledJobs(ports)).toEqual({ accountDeletions: 0, contactPurges: 0, accountExports: 0, contactImports: 1 });
    const checked = await eventually(async () => {
      const item = await get(keys.contactImport('D1', 'I1'));
      return item?.status === 'checked' ? item : null;
    });
    expect(checked).toMatchObject({ rows: 2, accepted: 1, skipped: 0, rejected: 1, problems: [{ line: 3, reason: 'Telefone inválido' }] });
    expect(checked.gsi1pk).toBeUndefined();
    expect(failures).toEqual([]);
  });
});
