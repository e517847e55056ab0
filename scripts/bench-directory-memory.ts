/**
 * `npm run bench:directory`: how far the contact directory's byte estimate (directory-memory.ts),
 * which its budget is enforced on, is from the heap a loaded view really takes. For each size, a
 * contact snapshot like the bucket's (the bench's realistic contacts: names, e-mails, numbers, last
 * message, assignee, department) is decoded and loaded as a cold process does; the V8 heap after a
 * full collection is compared with the estimate, once loaded, once listed in two orders and
 * searched twice (sorted lists, kept matches, the trigram index). Writes the `directory` section
 * of bench/results.md. Runs in process, with no table: the change index answers nothing.
 */
import { cpus, loadavg } from 'node:os';
import { readFileSync, writeFileSync } from 'node:fs';
import { contactFields, type ContactItem } from '#db/contacts.ts';
import type { Table } from '#db/client.ts';
import { entityTypes } from '#db/keys.ts';
import { ContactDirectory } from '#domain/contacts/contact-directory.ts';
import { decodeSnapshot, encodeSnapshot } from '#domain/contacts/contact-snapshot.ts';
import { contactListRules } from '#domain/contacts/contacts.ts';
import { fold, parseListQuery } from '#domain/list-query.ts';
import { inboxItems } from './bench-data.ts';
import { withSection } from './bench-seed.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('Run with node --expose-gc (npm run bench:directory does)');

const heapUsed = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

/** No table: the snapshot is current, so the change index read answers nothing. */
const noChanges = { name: 'bench', doc: { send: async () => ({ Items: [] }) } } as unknown as Table;
const noServices = async () => [];
const sign = async (key: string) => key;

async function snapshotBytes(contacts: number): Promise<{ accountId: string; bytes: Uint8Array }> {
  const items: ContactItem[] = [];
  const seeded = await inboxItems({ contacts, messages: contacts, bigConversation: 1, seed: 7 }, async (item) => {
    if (item.type === entityTypes.contact) items.push(item as unknown as ContactItem);
  });
  const bytes = await encodeSnapshot({
    accountId: seeded.accountId,
    position: Date.now(),
    contacts: items.map((item) => {
      const fields = contactFields(item);
      return { fields, folded: { name: fold(fields.name), email: fields.email ? fold(fields.email) : null, phone: fields.phoneNumber } };
    }),
  });
  return { accountId: seeded.accountId, bytes };
}

interface Row {
  contacts: number;
  stage: string;
  measuredMb: number;
  estimatedMb: number;
}

const mb = (bytes: number) => +(bytes / 2 ** 20).toFixed(1);

async function measure(contacts: number): Promise<Row[]> {
  const { accountId, bytes } = await snapshotBytes(contacts);
  const before = heapUsed();
  const directory = new ContactDirectory(Date.now, Number.MAX_SAFE_INTEGER);
  const query = (raw: object) => parseListQuery(JSON.stringify(raw), contactListRules);
  const list = (raw: object) => directory.list(noChanges, accountId, noServices, query(raw), sign, async () => decodeSnapshot(bytes, accountId));
  await list({ perPage: 20 });
  const rows: Row[] = [];
  const row = (stage: string) => rows.push({ contacts, stage, measuredMb: mb(heapUsed() - before), estimatedMb: mb(directory.memory().estimatedBytes) });
  row('loaded, one order');
  await list({ order: [['name', 'ASC']], perPage: 20 });
  await list({ where: { name: { like: '%silva%' } }, perPage: 20 });
  await list({ where: { name: { like: '%souza%' } }, perPage: 20 });
  row('two orders, two searches (trigram index)');
  // The inbox: its tabs filter by assignee and status, its badges count each (docs/api.md, "List filters").
  const someone = (await decodeSnapshot(bytes, accountId))?.contacts.find((c) => c.fields.userId)?.fields.userId ?? 'nobody';
  for (const userId of [someone, null]) {
    for (const status of [undefined, 'open', 'pending']) {
      await list({ where: { archivedAt: null, userId, ...(status ? { status } : {}) }, order: [['lastMessageAt', 'DESC']], perPage: 50, withCount: true });
    }
  }
  await list({ where: { archivedAt: null, 'service.type': 'whatsapp' }, order: [['lastMessageAt', 'DESC']], perPage: 50, withCount: true });
  row("and the inbox's tabs and counts (by assignee, status, channel)");
  return rows;
}

const rows: Row[] = [];
const loadStart = loadavg()[0]!.toFixed(1);
for (const contacts of [5_000, 25_000]) rows.push(...(await measure(contacts)));
const body = [
  '## Contact directory memory',
  '',
  `${new Date().toISOString().slice(0, 10)}, \`npm run bench:directory\` (scripts/bench-directory-memory.ts), ${cpus().length} cores, Node ${process.version}, load average ${loadStart} → ${loadavg()[0]!.toFixed(1)}.`,
  'Heap growth after full collections (measured) against the estimate the directory keeps its budget on (directory-memory.ts):',
  'an estimate at or above the measured heap keeps a process within its budget.',
  '',
  '| contacts | view holds | measured heap MB | estimated MB | estimate / measured | bytes a contact (measured) |',
  '|---|---|---|---|---|---|',
  ...rows.map(
    (r) =>
      `| ${r.contacts.toLocaleString('en-US')} | ${r.stage} | ${r.measuredMb} | ${r.estimatedMb} | ${(r.estimatedMb / r.measuredMb).toFixed(2)} | ${Math.round((r.measuredMb * 2 ** 20) / r.contacts).toLocaleString('en-US')} |`,
  ),
].join('\n');
writeFileSync('bench/results.md', withSection(readFileSync('bench/results.md', 'utf8'), 'directory', body));
console.log(body);
