/**
 * `npm run bench:cold`: the first contact list and the first search of a cold process, with and
 * without the account's contact snapshot, at 25,000 and 100,000 contacts (BENCH_COLD_SIZES).
 * Seeds dynalite and a local S3 (s3rver) in this process, writes the snapshot as the
 * `contact-snapshots` consumer does, changes some contacts after it (the part brought current from
 * the change index), then times each first request in a fresh Node process (its module loading not
 * counted). Writes bench/cold-start.md.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { BatchWriteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { containsPattern } from '#contracts/list-query.ts';
import type { Table } from '#db/client.ts';
import { contactItem, type ContactItem } from '#db/contacts.ts';
import { contactSnapshotObjectKey } from '#db/keys.ts';
import { ContactDirectory } from '#domain/contacts/contact-directory.ts';
import { readContactSnapshot, writeContactSnapshot } from '#domain/contacts/contact-snapshot.ts';
import { contactListRules, contactSnapshotOrders } from '#domain/contacts/contacts.ts';
import { parseListQuery } from '#domain/list-query.ts';
import { s3Storage } from '#lib/s3-storage.ts';
import { benchContactItem, openSeedTable } from './bench-seed.ts';

const TABLE = 'cold';
const BUCKET = 'cold-media';
const ACCOUNT = 'BENCHCOLD';
const CHANGED_AFTER_SNAPSHOT = 300;

interface Endpoints {
  dynamo: string;
  s3: string;
}

function clients(endpoints: Endpoints) {
  const table: Table = {
    name: TABLE,
    doc: DynamoDBDocumentClient.from(
      new DynamoDBClient({ endpoint: endpoints.dynamo, region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } }),
      { marshallOptions: { removeUndefinedValues: true } },
    ),
  };
  const storage = s3Storage(
    BUCKET,
    new S3Client({
      endpoint: endpoints.s3,
      region: 'us-east-1',
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      forcePathStyle: true,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    }),
  );
  return { table, storage };
}

const noServices = async () => [];
const sign = async (key: string) => key;
const firstPage = () => parseListQuery(JSON.stringify({ page: 0, perPage: 20 }), contactListRules);
const search = () =>
  parseListQuery(
    JSON.stringify({
      where: { archivedAt: null, or: [{ name: { like: containsPattern('silva') } }, { 'data.email': { like: containsPattern('silva') } }] },
      perPage: 20,
    }),
    contactListRules,
  );

/** In the child: one cold directory, its first list or first search timed. */
async function measure(endpoints: Endpoints, withSnapshot: boolean, first: 'list' | 'search') {
  const { table, storage } = clients(endpoints);
  const directory = new ContactDirectory();
  const readSnapshot = withSnapshot ? () => readContactSnapshot(storage, ACCOUNT) : undefined;
  const started = performance.now();
  const answer = await directory.list(table, ACCOUNT, noServices, first === 'list' ? firstPage() : search(), sign, readSnapshot);
  const ms = performance.now() - started;
  const sync = directory.lastSync(ACCOUNT);
  const next = performance.now();
  await directory.list(table, ACCOUNT, noServices, first === 'list' ? search() : firstPage(), sign, readSnapshot);
  const secondMs = performance.now() - next;
  return { ms, secondMs, totalCount: answer.totalCount, sync, heapMb: process.memoryUsage().heapUsed / 2 ** 20 };
}

function mulberry32(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const firstNames = ['Ana', 'João', 'Maria', 'José', 'Francisca', 'Antônio', 'Adriana', 'Carlos', 'Juliana', 'Paulo', 'Márcia', 'Lucas', 'Fernanda', 'Pedro'];
const surnames = [
  'Silva',
  'Santos',
  'Oliveira',
  'Souza',
  'Rodrigues',
  'Ferreira',
  'Alves',
  'Pereira',
  'Lima',
  'Gomes',
  'Conceição',
  'Araújo',
  'Gonçalves',
  'Ribeiro',
];

function contact(i: number, random: () => number, at: string): ContactItem {
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;
  const name = `${pick(firstNames)} ${pick(surnames)} ${pick(surnames)}`;
  const phone = `5511${String(900000000 + i)}`;
  const talked = random() < 0.8;
  return benchContactItem({
    id: `C${String(i).padStart(8, '0')}`,
    accountId: ACCOUNT,
    serviceId: 'S1',
    name,
    email: random() < 0.6 ? `${name.split(' ')[0]!.toLowerCase()}.${i}@exemplo.com.br` : null,
    phoneNumber: phone,
    lastMessage: talked
      ? { id: `M${i}`, text: 'Bom dia! Queria saber se ainda tem disponível', type: 'text', isFromMe: false, ack: 0, timestamp: at, file: null }
      : null,
    lastMessageAt: talked ? new Date(Date.parse(at) - Math.floor(random() * 90 * 86_400_000)).toISOString() : null,
    unread: 0,
    messagesCount: talked ? 4 : 0,
    createdAt: at,
    updatedAt: at,
  });
}

async function putAll(table: Table, items: ContactItem[]) {
  for (let i = 0; i < items.length; i += 25) {
    await table.doc.send(new BatchWriteCommand({ RequestItems: { [TABLE]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) } }));
  }
}

/** A fresh process (this script in child mode); this one keeps serving dynalite and s3rver meanwhile. */
async function child(endpoints: Endpoints, withSnapshot: boolean, first: 'list' | 'search') {
  const { stdout: out } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/bench-cold.ts'], {
    env: { ...process.env, BENCH_COLD_CHILD: JSON.stringify({ endpoints, withSnapshot, first }) },
    encoding: 'utf8',
    maxBuffer: 1 << 20,
    timeout: 600_000,
  });
  return JSON.parse(out.trim().split('\n').pop()!) as Awaited<ReturnType<typeof measure>>;
}

async function main() {
  const sizes = (process.env.BENCH_COLD_SIZES ?? '25000,100000').split(',').map(Number);
  const rows: string[] = [];
  for (const size of sizes) {
    const dir = mkdtempSync(join(tmpdir(), 'bench-cold-'));
    const seed = await openSeedTable(dir, TABLE);
    const s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: join(dir, 's3'), configureBuckets: [{ name: BUCKET, configs: [] }] });
    const s3Address = (await s3.run()) as AddressInfo;
    try {
      const dynamo = await dynamoEndpoint(seed.doc);
      const endpoints = { dynamo, s3: `http://127.0.0.1:${s3Address.port}` };
      const { table, storage } = clients(endpoints);
      const random = mulberry32(size);
      const at = new Date(Date.now() - 60_000).toISOString();
      const seeded = Date.now();
      await putAll(
        table,
        Array.from({ length: size }, (_, i) => contact(i, random, at)),
      );
      console.log(`${size} contacts seeded in ${((Date.now() - seeded) / 1000).toFixed(0)} s`);
      // The snapshot as the consumer writes it, then contacts changed after it.
      const writer = new ContactDirectory();
      await writeContactSnapshot(
        storage,
        await writer.snapshot(table, ACCOUNT, noServices, contactListRules.defaultOrder ?? [], undefined, contactSnapshotOrders),
      );
      const snapshotBytes = (await storage.head(contactSnapshotObjectKey(ACCOUNT)))?.size ?? 0;
      await new Promise((r) => setTimeout(r, 10));
      const now = new Date().toISOString();
      await putAll(
        table,
        Array.from({ length: CHANGED_AFTER_SNAPSHOT }, (_, i) => ({ ...contact(i * 7, random, at), name: `Alterada Silva ${i}`, updatedAt: now })).map((c) =>
          contactItem({ ...c }),
        ),
      );
      for (const [label, withSnapshot, first] of [
        ['first list, from the snapshot', true, 'list'],
        ['first search, from the snapshot', true, 'search'],
        ['first list, every contact item (before)', false, 'list'],
      ] as const) {
        const r = await child(endpoints, withSnapshot, first);
        console.log(size, label, r);
        rows.push(
          `| ${size.toLocaleString('en-US')} | ${label} | ${r.ms.toFixed(0)} | ${r.secondMs.toFixed(1)} | ${r.sync?.loaded} | ${r.sync?.changesRead.toLocaleString('en-US')} | ${withSnapshot ? `${(snapshotBytes / 2 ** 20).toFixed(1)} MB` : '-'} | ${r.heapMb.toFixed(0)} |`,
        );
      }
    } finally {
      await s3.close();
      await seed.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const page = `# Cold start: the first contact list or search of a fresh process

Written by \`npm run bench:cold\` (scripts/bench-cold.ts) on ${new Date().toISOString().slice(0, 10)}, ${cpus().length} × ${cpus()[0]?.model.trim()}, ${(totalmem() / 2 ** 30).toFixed(0)} GB,
Node ${process.version}, dynalite and s3rver on loopback. A shared machine: load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ')} (1 / 5 / 15 min) when the page was written, so absolute times are inflated; compare rows of one run.
Each row is a fresh Node process (module loading not counted) timing its first request, then the
other one. ${CHANGED_AFTER_SNAPSHOT} contacts changed after the snapshot was written, so the snapshot path also reads
them from the change index. "DynamoDB items read" is what the first request read from the table
(every contact item on a full load; the change index's answer after a snapshot).
Goal (docs/product.md#performance-goals): under 300 ms at 25,000 contacts and under 1 s at 100,000, reading a bounded amount.

| contacts | first request | ms | next request ms | started from | DynamoDB items read | snapshot (gzip) | heap MB |
|---|---|---|---|---|---|---|---|
${rows.join('\n')}
`;
  writeFileSync('bench/cold-start.md', page);
  console.log(page);
}

/** The endpoint of the seed table's dynalite, from its client's configuration. */
async function dynamoEndpoint(doc: DynamoDBDocumentClient): Promise<string> {
  const endpoint = await doc.config.endpoint?.();
  if (!endpoint) throw new Error('The seed table has no endpoint');
  return `${endpoint.protocol}//${endpoint.hostname}:${endpoint.port}`;
}

const childTask = process.env.BENCH_COLD_CHILD;
if (childTask) {
  const { endpoints, withSnapshot, first } = JSON.parse(childTask) as { endpoints: Endpoints; withSnapshot: boolean; first: 'list' | 'search' };
  console.log(JSON.stringify(await measure(endpoints, withSnapshot, first)));
} else {
  await main();
}
