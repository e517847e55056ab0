/**
 * One step of a contact import's pass (ADR-0223): at most `rowsPerStep` rows, read
 * from the byte where the last step stopped (a range of the file, never the whole), each checked,
 * compared with the file's earlier rows and the account's contacts, and, in the import, written
 * with a seat of the plan. A check writes nothing but its counts. Every step may run twice (a
 * retried stream record): its contacts have ids of their own line, its files are rewritten whole.
 */
import { createHash } from 'node:crypto';
import { importReasons, type ContactImportSettings, type ImportRowProblem } from '#contracts/contact-imports.ts';
import type { ListQuery } from '#contracts/list-query.ts';
import { effectiveLimits } from '#contracts/plans.ts';
import { getAccountItem, takeSeatStep, takeSeatsStep } from '#db/accounts.ts';
import { claimChannelIdStep, contactIdByChannel, contactItem, type ContactItem } from '#db/contacts.ts';
import type { ContactImportItem, ImportProgress } from '#db/contact-imports.ts';
import { importObjectKey } from '#db/keys.ts';
import { accountServices, getServiceItem } from '#db/services.ts';
import { putNewStep, refusedBy, writeTogether } from '#db/transaction.ts';
import { contactDirectory } from '../contacts/contact-directory.ts';
import { readContactSnapshot } from '../contacts/contact-snapshot.ts';
import { whatsappJid } from '../contacts/contacts.ts';
import { findDepartment } from '../departments/departments.ts';
import type { Ports } from '../ports.ts';
import type { StepResult } from '../stepped-job.ts';
import { bytesOf, decodeRange, detectFormat, isBlank, readRecords } from './csv-chunks.ts';
import { withoutNinthDigit } from './import-phone.ts';
import { evaluateRow, problemLine, problemsHeader, repetitionOf, type ImportRow, type SeenRows } from './import-rows.ts';

/** Rows one step reads at most: with a transaction per 25 contacts, well inside a Lambda's time. */
export const rowsPerStep = 500;
/** The bytes a step reads first; a longer row doubles it, up to `maxRangeBytes`. */
const rangeBytes = 256 * 1024;
const maxRangeBytes = 4 * 1024 * 1024;
/** Bytes read to tell the format. */
export const headBytes = 64 * 1024;
/** Rows left out kept on the item for the screen; the rest are in the downloadable list. */
const problemsShown = 100;
/** Contacts written together (two members each, and the seats). */
const batchSize = 25;

type Pass = 'check' | 'import';
const passOf = (job: ContactImportItem): Pass => (job.status === 'checking' ? 'check' : 'import');
const seenKey = (job: ContactImportItem) => importObjectKey(job.accountId, job.id, `seen-${passOf(job)}.json`);
const partKey = (job: ContactImportItem, part: number) => importObjectKey(job.accountId, job.id, `${passOf(job)}-part-${String(part).padStart(6, '0')}.csv`);

/** The id of the contact a line of an import makes: the same in a step run again, so its write is known as its own. */
export function importedContactId(importId: string, line: number): string {
  const digest = createHash('sha256').update(`${importId}#${line}`).digest();
  const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  let random = '';
  for (let i = 0; i < 16; i++) random += alphabet[digest[i]! % 32];
  // A ULID's shape: the import's time, then 16 characters of the line's own.
  return `${importId.slice(0, 10)}${random}`;
}

async function readSeen(ports: Ports, job: ContactImportItem): Promise<SeenRows> {
  if (job.rows === 0) return { phones: {}, emails: {} };
  return JSON.parse(new TextDecoder().decode(await ports.storage.get(seenKey(job)))) as SeenRows;
}

/** The rows whose phone (either spelling of a Brazilian mobile) or e-mail an account's contact already has. */
async function existingOf(ports: Ports, accountId: string, rows: readonly ImportRow[]): Promise<Set<number>> {
  const phones = new Set<string>();
  const emails = new Set<string>();
  for (const row of rows) {
    phones.add(row.phone.digits);
    const other = withoutNinthDigit(row.phone.digits);
    if (other) phones.add(other);
    if (row.email) emails.add(row.email);
  }
  const foundPhones = new Set<string>();
  const foundEmails = new Set<string>();
  if (rows.length) {
    const where = {
      or: [{ 'data.phoneNumber': { in: [...phones] } }, ...(emails.size ? [{ 'data.email': { in: [...emails] } }] : [])],
    };
    for (let page = 0; ; page++) {
      const q: ListQuery = { where, include: [], order: [['id', 'ASC']], page, perPage: 500, withCount: false };
      const answer = await contactDirectory.list(
        ports.table,
        accountId,
        () => accountServices(ports.table, accountId),
        q,
        ports.storage.downloadUrl,
        () => readContactSnapshot(ports.storage, accountId),
      );
      for (const contact of answer.data) {
        if (contact.data.phoneNumber) foundPhones.add(contact.data.phoneNumber);
        if (contact.data.email) foundEmails.add(contact.data.email);
      }
      if (answer.data.length < q.perPage) break;
    }
  }
  const existing = new Set<number>();
  for (const row of rows) {
    const other = withoutNinthDigit(row.phone.digits);
    if (foundPhones.has(row.phone.digits) || (other && foundPhones.has(other)) || (row.email && foundEmails.has(row.email))) existing.add(row.line);
  }
  return existing;
}

type WriteOutcome = 'imported' | 'exists' | 'full';

/** Writes the rows' contacts, 25 to a transaction while the plan has room for all of them, else one by one. */
async function writeContacts(
  ports: Ports,
  job: ContactImportItem,
  settings: ContactImportSettings,
  rows: readonly ImportRow[],
): Promise<Map<number, WriteOutcome>> {
  const outcomes = new Map<number, WriteOutcome>();
  if (!rows.length) return outcomes;
  const [account, service, department] = await Promise.all([
    getAccountItem(ports.table, job.accountId),
    getServiceItem(ports.table, job.accountId, settings.serviceId),
    settings.departmentId ? departmentOf(ports, job.accountId, settings.departmentId) : Promise.resolve(null),
  ]);
  if (!account || !service) {
    for (const row of rows) outcomes.set(row.line, 'full');
    return outcomes;
  }
  const limit = effectiveLimits(account.plan).contacts;
  let taken = account.contactsCount ?? 0;
  const now = ports.clock().toISOString();
  const itemOf = (row: ImportRow): ContactItem =>
    contactItem({
      id: importedContactId(job.id, row.line),
      accountId: job.accountId,
      serviceId: service.id,
      name: row.name,
      contactType: 'user',
      idFromService: service.channelType === 'whatsapp_cloud' ? row.phone.digits : whatsappJid(row.phone.digits),
      email: row.email,
      phoneNumber: row.phone.digits,
      phoneCountry: row.phone.country,
      gender: null,
      avatarKey: null,
      isOnline: false,
      lastSeenAt: null,
      archivedAt: null,
      archivedReason: null,
      lastMessage: null,
      lastMessageAt: null,
      unread: 0,
      messagesCount: 0,
      departmentId: department?.id ?? null,
      department,
      tagIds: settings.tagIds,
      createdAt: now,
      updatedAt: now,
    });
  const one = async (item: ContactItem, line: number) => {
    try {
      await writeTogether(ports.table, {
        channelId: claimChannelIdStep(item),
        contact: putNewStep(item),
        seat: takeSeatStep(job.accountId, 'contactsCount', limit),
      });
      outcomes.set(line, 'imported');
    } catch (error) {
      if (refusedBy(error, 'channelId', 'contact')) {
        // This line's own contact, written by an earlier run of this step, or someone else's.
        const holder = await contactIdByChannel(ports.table, job.accountId, item.serviceId, item.idFromService);
        outcomes.set(line, holder === item.id ? 'imported' : 'exists');
      } else if (refusedBy(error, 'seat')) outcomes.set(line, 'full');
      else throw error;
    }
  };
  for (let i = 0; i < rows.length; i += batchSize) {
    const batch = rows.slice(i, i + batchSize);
    const items = batch.map(itemOf);
    if (taken + batch.length <= limit) {
      try {
        await writeTogether(ports.table, {
          ...Object.fromEntries(items.flatMap((item, k) => [[`channelId${k}`, claimChannelIdStep(item)] as const, [`contact${k}`, putNewStep(item)] as const])),
          seats: takeSeatsStep(job.accountId, 'contactsCount', batch.length, limit),
        });
        for (const row of batch) outcomes.set(row.line, 'imported');
        taken += batch.length;
        continue;
      } catch (error) {
        if (!refusedBy(error)) throw error;
      }
    }
    for (const [k, item] of items.entries()) await one(item, batch[k]!.line);
    taken = (await getAccountItem(ports.table, job.accountId))?.contactsCount ?? taken;
  }
  return outcomes;
}

async function departmentOf(ports: Ports, accountId: string, id: string): Promise<{ id: string; name: string } | null> {
  const item = await findDepartment(ports, accountId, id);
  return item ? { id: item.id, name: item.name } : null;
}

/** The rows of one range of the file, and where the next range starts. */
async function readRows(ports: Ports, job: ContactImportItem) {
  let format = job.format;
  let offset = job.offset;
  if (!format) {
    const head = await ports.storage.getRange(job.objectKey, 0, Math.min(job.size, headBytes));
    const detected = detectFormat(head, job.size <= headBytes);
    format = { encoding: detected.encoding, delimiter: detected.delimiter };
    offset = detected.start;
  }
  const wanted = rowsPerStep + (job.line === 1 ? 1 : 0);
  for (let length = rangeBytes; ; length *= 2) {
    const end = Math.min(job.size, offset + length);
    const atEnd = end >= job.size;
    const bytes = await ports.storage.getRange(job.objectKey, offset, end);
    const decoded = decodeRange(bytes, format.encoding, atEnd);
    const { records, consumed } = readRecords(decoded.text, format.delimiter, atEnd, wanted);
    const tooLong = !records.length && !atEnd && length * 2 > maxRangeBytes;
    if (records.length || atEnd || tooLong) {
      // A row longer than the largest range is left out whole (the range's bytes, to its end).
      const taken = tooLong ? decoded.text.length : consumed;
      return {
        format: { ...format, encoding: decoded.encoding },
        records: tooLong ? [[importReasons.tooLong]] : records,
        tooLong,
        next: offset + bytesOf(decoded.text, taken, decoded.encoding),
        atEnd: atEnd && taken >= decoded.text.length,
      };
    }
  }
}

/** One step of a pass: a range of rows, or, once the file is read, the list of rows left out made whole. */
export async function importStep(ports: Ports, job: ContactImportItem): Promise<StepResult<ImportProgress>> {
  const settings = job.settings;
  if (!settings) return { done: true };
  if (job.phase === 'compose') return compose(ports, job);
  const pass = passOf(job);
  const read = await readRows(ports, job);
  const seen = await readSeen(ports, job);
  let line = job.line;
  let records = read.records;
  if (line === 1 && records.length && !read.tooLong) {
    records = records.slice(1); // The header.
    line = 2;
  }
  const problems: ImportRowProblem[] = [];
  const lines: string[] = [];
  const candidates: ImportRow[] = [];
  const recordOf = new Map<number, string[]>();
  let rows = 0;
  const leaveOut = (at: number, reason: string, record: readonly string[]) => {
    problems.push({ line: at, reason });
    lines.push(problemLine(at, reason, record));
  };
  for (const record of records) {
    const at = line++;
    if (read.tooLong) {
      rows++;
      leaveOut(at, importReasons.tooLong, []);
      continue;
    }
    if (isBlank(record)) continue;
    rows++;
    const outcome = evaluateRow(record, at, settings.mapping, settings.country);
    if (!outcome.ok) {
      leaveOut(at, outcome.reason, record);
      continue;
    }
    const repeated = repetitionOf(seen, outcome.row);
    if (repeated) leaveOut(at, repeated, record);
    else {
      candidates.push(outcome.row);
      recordOf.set(at, record);
    }
  }
  const existing = await existingOf(ports, job.accountId, candidates);
  const fresh = candidates.filter((row) => !existing.has(row.line));
  const account = await getAccountItem(ports.table, job.accountId);
  const limit = effectiveLimits(account?.plan).contacts;
  let accepted = 0;
  let skipped = 0;
  let room = job.room;
  const outcomes =
    pass === 'import'
      ? await writeContacts(ports, job, settings, fresh)
      : new Map(fresh.map((row) => [row.line, room-- > 0 ? ('imported' as const) : ('full' as const)]));
  for (const row of candidates) {
    const outcome = existing.has(row.line) ? 'exists' : outcomes.get(row.line);
    if (outcome === 'imported') accepted++;
    else if (outcome === 'exists') {
      skipped++;
      leaveOut(row.line, importReasons.exists, recordOf.get(row.line) ?? []);
    } else leaveOut(row.line, importReasons.overLimit(limit), recordOf.get(row.line) ?? []);
  }
  problems.sort((a, b) => a.line - b.line);
  lines.sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10));
  let parts = job.parts;
  if (lines.length) {
    parts++;
    await ports.storage.put(partKey(job, parts), new TextEncoder().encode(`${lines.join('\r\n')}\r\n`), 'text/csv');
  }
  if (!read.atEnd) await ports.storage.put(seenKey(job), new TextEncoder().encode(JSON.stringify(seen)), 'application/json');
  return {
    progress: {
      ...job,
      phase: read.atEnd ? 'compose' : 'rows',
      format: read.format,
      offset: read.next,
      line,
      rows: job.rows + rows,
      accepted: job.accepted + accepted,
      skipped: job.skipped + skipped,
      rejected: job.rejected + problems.length - skipped,
      room: Math.max(0, room),
      problems: [...job.problems, ...problems].slice(0, problemsShown),
      parts,
    },
  };
}

/** The parts of the list of rows left out, one after the other under its header (UTF-8 with a BOM: Excel reads the accents). */
async function* problemsFile(ports: Ports, job: ContactImportItem): AsyncGenerator<Uint8Array> {
  yield new TextEncoder().encode(`\uFEFF${problemsHeader}\r\n`);
  for (let part = 1; part <= job.parts; part++) yield ports.storage.get(partKey(job, part));
}

async function compose(ports: Ports, job: ContactImportItem): Promise<StepResult<ImportProgress>> {
  const key = importObjectKey(job.accountId, job.id, `${passOf(job)}-problems.csv`);
  await ports.storage.putStream(key, problemsFile(ports, job), 'text/csv');
  const leftovers = [seenKey(job), ...Array.from({ length: job.parts }, (_, i) => partKey(job, i + 1))];
  await ports.storage.remove(leftovers);
  return {
    progress: {
      ...job,
      status: job.status === 'checking' ? 'checked' : 'done',
      finishedAt: ports.clock().toISOString(),
      problemsKey: key,
    },
  };
}
