/**
 * Exporting the whole account's data (LGPD access request, owner or admin): a background job
 * writes a JSON Lines archive to the bucket, one record a line (`{ "kind": "Account" | "User" |
 * "Service" | "Contact" | "File" | "Message", ... }`, keys and secrets left out), and the export
 * answers a signed download link once done. The job runs a bounded step per change of its item
 * (`runExportStep`, from the `account-export` stream consumer): each step writes one part, the last
 * joins the parts into the archive. See ADR-0117.
 */
import type { AccountExport } from '#contracts/accounts.ts';
import { advanceAccountExport, getAccountExport, pageOf, pendingAccountExports, putAccountExport, type AccountExportItem } from '#db/account-exports.ts';
import { entityTypes, exportObjectKey, keys } from '#db/keys.ts';
import { fail } from '../errors.ts';
import type { Ports } from '../ports.ts';
import type { AccountSession } from '../session.ts';
import type { ResumeOptions } from '../job-staleness.ts';
import { resumeJobs, runJobStep, type SteppedJob, type StepResult } from '../stepped-job.ts';

/** Records one step writes at most. */
const pageSize = 500;
/** The item types of the account's own partition that belong in the archive. */
const ownKinds = new Set<string>([entityTypes.account, entityTypes.user, entityTypes.service, entityTypes.contact, entityTypes.file]);
/** Never in an archive: keys, secrets, credentials. */
const withheld = new Set([
  'pk',
  'sk',
  'gsi1pk',
  'gsi1sk',
  'gsi2pk',
  'gsi2sk',
  'ttl',
  'passwordHash',
  'tokenSealed',
  'qrCode',
  'pairingCode',
  'stripeCustomerId',
]);

function lineOf(item: Record<string, unknown>): string {
  const record: Record<string, unknown> = { kind: item.type };
  for (const [field, value] of Object.entries(item)) if (!withheld.has(field) && field !== 'type') record[field] = value;
  return JSON.stringify(record);
}

function present(job: AccountExportItem, url: string | null): AccountExport {
  return { id: job.id, status: job.status, createdAt: job.createdAt, finishedAt: job.finishedAt, lines: job.lines, url };
}

function assertAllowed(session: AccountSession, accountId: string): void {
  if (accountId !== session.accountId) throw fail.notFound();
  if (!session.user.isAdmin) throw fail.forbidden();
}

export async function startAccountExport(ports: Ports, session: AccountSession, accountId: string): Promise<AccountExport> {
  assertAllowed(session, accountId);
  const job = await putAccountExport(ports.table, { accountId, id: ports.newId(), requestedBy: session.user.id, now: ports.clock().toISOString() });
  return present(job, null);
}

export async function getAccountExportStatus(ports: Ports, session: AccountSession, accountId: string, exportId: string): Promise<AccountExport> {
  assertAllowed(session, accountId);
  const job = await getAccountExport(ports.table, accountId, exportId);
  if (!job) throw fail.notFound();
  const day = job.createdAt.slice(0, 10);
  return present(job, job.objectKey ? await ports.storage.downloadUrl(job.objectKey, `conversa-dados-${day}.jsonl`, 'application/x-ndjson') : null);
}

/**
 * Parts the last step reads ahead of the one it writes: enough to hide S3's latency, few enough that
 * memory holds these and one 5 MiB upload part, whatever the account's size.
 */
export const composeReadAhead = 8;

/** The objects under `keys`, in order, at most `ahead` being read at once. */
async function* inOrder(ports: Ports, keys: readonly string[], ahead: number): AsyncGenerator<Uint8Array> {
  const reading: Promise<Uint8Array>[] = [];
  let next = 0;
  const refill = () => {
    while (next < keys.length && reading.length < ahead) {
      const read = ports.storage.get(keys[next++]!);
      // Read while the consumer is elsewhere; its failure is thrown when its turn comes.
      read.catch(() => undefined);
      reading.push(read);
    }
  };
  refill();
  while (reading.length) {
    const bytes = await reading.shift()!;
    refill();
    yield bytes;
  }
}

async function writePart(ports: Ports, job: AccountExportItem, lines: string[]): Promise<number> {
  if (!lines.length) return job.parts;
  const part = job.parts + 1;
  const name = `part-${String(part).padStart(6, '0')}.jsonl`;
  await ports.storage.put(exportObjectKey(job.accountId, job.id, name), new TextEncoder().encode(`${lines.join('\n')}\n`), 'application/x-ndjson');
  return part;
}

type ExportProgress = Parameters<typeof advanceAccountExport>[2];

/** One step of an export, by its phase: the last one marks it done (its item stays, with the archive's key). */
async function exportStep(ports: Ports, job: AccountExportItem): Promise<StepResult<ExportProgress>> {
  const { accountId, id: exportId } = job;
  const same = {
    phase: job.phase,
    cursor: job.cursor,
    contactSk: job.contactSk,
    parts: job.parts,
    lines: job.lines,
    status: job.status,
    finishedAt: null,
    objectKey: null,
  };
  const own = keys.accountPartition(accountId).pk;
  switch (job.phase) {
    case 'own': {
      const page = await pageOf(ports.table, { pk: own, limit: pageSize, start: job.cursor });
      const lines = page.items.filter((i) => ownKinds.has(String(i.type))).map(lineOf);
      const parts = await writePart(ports, job, lines);
      return {
        progress: {
          ...same,
          parts,
          lines: job.lines + lines.length,
          cursor: page.next,
          phase: page.next ? 'own' : 'messages',
        },
      };
    }
    case 'messages': {
      let contactSk = job.contactSk;
      if (!contactSk) {
        const next = await pageOf(ports.table, { pk: own, after: job.cursor ? String(job.cursor.after) : 'CONTACT#', limit: 1, start: null });
        const sk = next.items[0]?.sk;
        if (typeof sk !== 'string' || !sk.startsWith(keys.accountContacts(accountId).skPrefix)) {
          return { progress: { ...same, phase: 'compose', cursor: null, contactSk: null } };
        }
        contactSk = sk;
      }
      const contactId = contactSk.slice(keys.accountContacts(accountId).skPrefix.length);
      const { pk, skPrefix } = keys.contactMessages(accountId, contactId);
      const page = await pageOf(ports.table, { pk, skPrefix, limit: pageSize, start: job.contactSk ? job.cursor : null });
      const lines = page.items.map(lineOf);
      const parts = await writePart(ports, job, lines);
      return {
        progress: {
          ...same,
          parts,
          lines: job.lines + lines.length,
          // The contact's next page, or the next contact after this one.
          contactSk: page.next ? contactSk : null,
          cursor: page.next ?? { after: contactSk },
        },
      };
    }
    case 'compose': {
      const prefix = exportObjectKey(accountId, exportId, 'part-');
      const names = Array.from({ length: job.parts }, (_, i) => exportObjectKey(accountId, exportId, `part-${String(i + 1).padStart(6, '0')}.jsonl`));
      const archive = exportObjectKey(accountId, exportId, 'conversa-dados.jsonl');
      // A multipart upload fed part by part (ADR-0117): memory holds
      // `composeReadAhead` parts and one upload part, not the whole archive.
      await ports.storage.putStream(archive, inOrder(ports, names, composeReadAhead), 'application/x-ndjson');
      for (let left = await ports.storage.list(prefix, 1000); left.length; left = await ports.storage.list(prefix, 1000)) await ports.storage.remove(left);
      return { progress: { ...same, status: 'done', finishedAt: ports.clock().toISOString(), objectKey: archive } };
    }
  }
}

/** An export as a stepped job; a resume writes the item's own values back. */
export const accountExportJob: SteppedJob<{ accountId: string; id: string }, AccountExportItem, ExportProgress> = {
  refOf: (image) => (typeof image.accountId === 'string' && typeof image.id === 'string' ? { accountId: image.accountId, id: image.id } : undefined),
  get: (table, ref) => getAccountExport(table, ref.accountId, ref.id),
  isRunning: (job) => job.status === 'running',
  step: exportStep,
  advance: advanceAccountExport,
  nudge: (job) => job,
  pending: pendingAccountExports,
  steppedAt: (job) => job.steppedAt ?? job.createdAt,
};

/** One step of an export, for a change of its item (`runJobStep`); nothing once it is done or gone. */
export const runExportStep = (ports: Ports, accountId: string, id: string) => runJobStep(ports, accountExportJob, { accountId, id });

/** Moves running exports on: every one (a restart), or those stalled (`resumeJobs`). */
export const resumeAccountExports = (ports: Pick<Ports, 'table' | 'clock'>, options: ResumeOptions = {}) => resumeJobs(ports, accountExportJob, options);
