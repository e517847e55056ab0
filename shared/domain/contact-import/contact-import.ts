/**
 * Importing contacts from a CSV file (docs/product.md#screens, 'Importar contatos'; ADR-0223), admins only: the file goes to the bucket through a presigned PUT, the screen reads
 * its header and first rows (`previewContactImport`), then a check (dry run) and the import run in
 * the background as a stepped job (`contactImportJob`, from the `contact-import` stream consumer), a
 * bounded number of rows a step. A contact that already exists (by phone or e-mail) is skipped,
 * never changed; rows past the plan's contact limit are refused, never stored archived.
 */
import {
  guessMapping,
  importMimetype,
  previewRows,
  type ContactImport,
  type ContactImportCreated,
  type ContactImportPreview,
  type ContactImportRequest,
  type ContactImportSettings,
  type ContactImportSummary,
} from '#contracts/contact-imports.ts';
import type { ListAnswer } from '#contracts/entities.ts';
import { errorTexts } from '#contracts/errors.ts';
import { effectiveLimits } from '#contracts/plans.ts';
import { getAccountItem } from '#db/accounts.ts';
import { listCatalogue } from '#db/catalogues.ts';
import {
  accountContactImports,
  advanceContactImport,
  freshProgress,
  getContactImport,
  pendingContactImports,
  putContactImport,
  startContactImportPass,
  type ContactImportItem,
  type ImportProgress,
  type ListedContactImport,
} from '#db/contact-imports.ts';
import { importObjectKey } from '#db/keys.ts';
import { getServiceItem } from '#db/services.ts';
import { accountUsers } from '#db/users.ts';
import type { ListQuery } from '#contracts/list-query.ts';
import { fail } from '../errors.ts';
import { findDepartment } from '../departments/departments.ts';
import type { ResumeOptions } from '../job-staleness.ts';
import { applyListQuery, type ListRules } from '../list-query.ts';
import type { Ports } from '../ports.ts';
import type { AccountSession } from '../session.ts';
import { resumeJobs, runJobStep, type SteppedJob } from '../stepped-job.ts';
import { detectFormat, isBlank, readRecords } from './csv-chunks.ts';
import { headBytes, importStep } from './import-step.ts';

const invalid = (path: string, message: string) => fail.invalid(errorTexts.invalidParams, [{ path, message }]);

function assertAdmin(session: AccountSession): void {
  if (!session.user.isAdmin) throw fail.forbidden();
}

/** The signed link to a finished pass's list of rows left out, named by the import's day. */
const problemsUrlOf = (ports: Ports, job: Pick<ContactImportItem, 'problemsKey' | 'createdAt'>) =>
  job.problemsKey ? ports.storage.downloadUrl(job.problemsKey, `importacao-${job.createdAt.slice(0, 10)}-linhas-nao-importadas.csv`, 'text/csv') : null;

async function present(ports: Ports, job: ContactImportItem): Promise<ContactImport> {
  return {
    id: job.id,
    fileName: job.fileName,
    size: job.size,
    status: job.status,
    settings: job.settings,
    bytesRead: Math.min(job.size, job.offset),
    rows: job.rows,
    accepted: job.accepted,
    skipped: job.skipped,
    rejected: job.rejected,
    problems: job.problems,
    problemsUrl: await problemsUrlOf(ports, job),
    createdAt: job.createdAt,
    finishedAt: job.finishedAt,
  };
}

async function load(ports: Ports, session: AccountSession, id: string): Promise<ContactImportItem> {
  assertAdmin(session);
  const job = await getContactImport(ports.table, session.accountId, id);
  if (!job) throw fail.notFound();
  return job;
}

/** A new import and the presigned PUT its file goes up with (bound to its type and length, ADR-0035). */
export async function createContactImport(ports: Ports, session: AccountSession, request: ContactImportRequest): Promise<ContactImportCreated> {
  assertAdmin(session);
  const id = ports.newId();
  const objectKey = importObjectKey(session.accountId, id, 'contatos.csv');
  const job = await putContactImport(ports.table, {
    accountId: session.accountId,
    id,
    requestedBy: session.user.id,
    fileName: request.name,
    size: request.length,
    objectKey,
    now: ports.clock().toISOString(),
  });
  return {
    import: await present(ports, job),
    urlToUpload: await ports.storage.uploadUrl(objectKey, importMimetype, request.length),
    mimetype: importMimetype,
  };
}

export async function getContactImportStatus(ports: Ports, session: AccountSession, id: string): Promise<ContactImport> {
  return present(ports, await load(ports, session, id));
}

/** What GET /contact-imports filters and orders on; newest first unless asked otherwise. */
export const contactImportListRules: ListRules = {
  fields: ['id', 'fileName', 'status', 'createdAt', 'finishedAt'],
  defaultOrder: [
    ['createdAt', 'DESC'],
    ['id', 'DESC'],
  ],
};

/**
 * 'Importações recentes': the account's imports (one Query of its import items, their list fields
 * only), filtered, ordered and paged by the list query; only the page's rows get a signed link.
 */
export async function listContactImports(ports: Ports, session: AccountSession, q: ListQuery): Promise<ListAnswer<ContactImportSummary>> {
  assertAdmin(session);
  const [items, users] = await Promise.all([accountContactImports(ports.table, session.accountId), accountUsers(ports.table, session.accountId)]);
  const names = new Map(users.map((user) => [user.id, user.name]));
  const page = applyListQuery(items, q);
  const row = async (job: ListedContactImport): Promise<ContactImportSummary> => ({
    id: job.id,
    fileName: job.fileName,
    size: job.size,
    status: job.status,
    requestedBy: names.has(job.requestedBy) ? { id: job.requestedBy, name: names.get(job.requestedBy)! } : null,
    bytesRead: Math.min(job.size, job.offset),
    rows: job.rows,
    accepted: job.accepted,
    skipped: job.skipped,
    rejected: job.rejected,
    problemsUrl: job.skipped + job.rejected > 0 ? await problemsUrlOf(ports, job) : null,
    createdAt: job.createdAt,
    finishedAt: job.finishedAt,
  });
  return { data: await Promise.all(page.data.map(row)), totalCount: page.totalCount };
}

/** The uploaded file's size, or 400 while it is not there (or not the size announced). */
async function uploaded(ports: Ports, job: ContactImportItem): Promise<void> {
  const head = await ports.storage.head(job.objectKey);
  if (!head || head.size !== job.size) throw invalid('file', 'O arquivo ainda não foi enviado');
}

/** The file's header and first rows, read from its first bytes, with the mapping its header suggests. */
export async function previewContactImport(ports: Ports, session: AccountSession, id: string): Promise<ContactImportPreview> {
  const job = await load(ports, session, id);
  await uploaded(ports, job);
  const head = await ports.storage.getRange(job.objectKey, 0, Math.min(job.size, headBytes));
  const format = detectFormat(head, job.size <= headBytes);
  const { records } = readRecords(format.text, format.delimiter, job.size <= headBytes, previewRows + 20);
  const [header = [], ...rest] = records.filter((record) => !isBlank(record));
  if (!header.length || header.every((cell) => !cell.trim())) throw invalid('file', 'O arquivo não tem linha de cabeçalho');
  const width = Math.max(header.length, ...rest.map((r) => r.length));
  const padded = (record: string[]) => Array.from({ length: width }, (_, i) => record[i] ?? '');
  return {
    encoding: format.encoding,
    delimiter: format.delimiter,
    header: padded(header),
    rows: rest.slice(0, previewRows).map(padded),
    mapping: guessMapping(padded(header)),
  };
}

/** The settings' connection, tags and department, each of the account; refusals on their fields. */
async function checkSettings(ports: Ports, accountId: string, settings: ContactImportSettings): Promise<void> {
  const [service, tags, department] = await Promise.all([
    getServiceItem(ports.table, accountId, settings.serviceId),
    settings.tagIds.length ? listCatalogue(ports.table, 'tag', accountId) : Promise.resolve([]),
    settings.departmentId ? findDepartment(ports, accountId, settings.departmentId) : Promise.resolve(null),
  ]);
  if (!service) throw invalid('serviceId', 'Conexão não encontrada');
  if (service.channelType === 'telegram') throw invalid('serviceId', 'Contatos importados precisam de uma conexão do WhatsApp');
  const known = new Set(tags.map((t) => t.id));
  const unknownTag = settings.tagIds.findIndex((tagId) => !known.has(tagId));
  if (unknownTag >= 0) throw invalid(`tagIds.${unknownTag}`, 'Etiqueta não encontrada');
  if (settings.departmentId && !department) throw invalid('departmentId', 'Departamento não encontrado');
}

/**
 * Starts a check (`dryRun`) or the import itself with these settings. A check may run again while
 * nothing is imported; the import runs once. 409 while a pass runs or once it is imported.
 */
export async function startContactImport(ports: Ports, session: AccountSession, id: string, settings: ContactImportSettings): Promise<ContactImport> {
  const job = await load(ports, session, id);
  if (job.status === 'checking' || job.status === 'importing' || job.status === 'done') {
    throw fail.conflict(errorTexts.invalidParams, [{ path: 'status', message: 'Esta importação já está em andamento ou terminou' }]);
  }
  await uploaded(ports, job);
  await checkSettings(ports, session.accountId, settings);
  const account = await getAccountItem(ports.table, session.accountId);
  const room = Math.max(0, effectiveLimits(account?.plan).contacts - (account?.contactsCount ?? 0));
  const progress: ImportProgress = { ...freshProgress, status: settings.dryRun ? 'checking' : 'importing', room };
  const now = ports.clock().toISOString();
  if (!(await startContactImportPass(ports.table, job, settings, progress, now))) {
    throw fail.conflict(errorTexts.invalidParams, [{ path: 'status', message: 'Esta importação já está em andamento ou terminou' }]);
  }
  return present(ports, { ...job, ...progress, settings, round: job.round + 1, steppedAt: now });
}

/** An import as a stepped job; a resume writes the item's own progress back. */
export const contactImportJob: SteppedJob<{ accountId: string; id: string }, ContactImportItem, ImportProgress> = {
  refOf: (image) => (typeof image.accountId === 'string' && typeof image.id === 'string' ? { accountId: image.accountId, id: image.id } : undefined),
  get: (table, ref) => getContactImport(table, ref.accountId, ref.id),
  isRunning: (job) => job.status === 'checking' || job.status === 'importing',
  step: importStep,
  advance: advanceContactImport,
  nudge: (job) => job,
  pending: pendingContactImports,
  steppedAt: (job) => job.steppedAt ?? job.createdAt,
};

/** One step of an import's pass, for a change of its item (`runJobStep`). */
export const runContactImportStep = (ports: Ports, accountId: string, id: string) => runJobStep(ports, contactImportJob, { accountId, id });

/** Moves running imports on: every one (a restart), or those stalled (`resumeJobs`). */
export const resumeContactImports = (ports: Pick<Ports, 'table' | 'clock'>, options: ResumeOptions = {}) => resumeJobs(ports, contactImportJob, options);
