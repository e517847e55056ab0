/**
 * 'Exportar CSV' on the Contatos screen (ADR-0226): the contacts the screen's filter
 * matches, as the CSV of contact-csv.ts, written to the bucket a slice of rows at a time (a
 * multipart upload, never the whole file in one string) and answered as a signed link. The link,
 * not the bytes, goes back through the API: 50,000 contacts make about 8 MB of CSV, past a Lambda
 * response's 6 MB, and one path for every size is the one that is tested.
 */
import type { ListQuery } from '#contracts/list-query.ts';
import { type CatalogueFields, listCatalogue } from '#db/catalogues.ts';
import { contactCsvObjectKey } from '#db/keys.ts';
import { accountServices } from '#db/services.ts';
import { accountBusinessHours } from '../business-hours/settings.ts';
import { visibleWhere, viewerOf } from '../conversations/visibility.ts';
import { fail } from '../errors.ts';
import type { Ports } from '../ports.ts';
import type { AccountSession } from '../session.ts';
import { contactDirectory } from './contact-directory.ts';
import { contactCsvChunks, csvDateFormat } from './contact-csv.ts';
import { readContactSnapshot } from './contact-snapshot.ts';

/** POST /contacts/csv-export's answer. */
export interface ContactListExport {
  url: string;
  filename: string;
  rows: number;
  bytes: number;
}

/** Exports the contacts a list query's filter matches, in its order (admins only: docs/product.md#roles-and-permissions). */
export async function exportContactList(ports: Ports, session: AccountSession, q: Pick<ListQuery, 'where' | 'order'>): Promise<ContactListExport> {
  if (!session.user.isAdmin) throw fail.forbidden();
  const { accountId } = session;
  const [viewer, tags, { hours }] = await Promise.all([
    viewerOf(ports, session),
    listCatalogue<CatalogueFields & { name: string }>(ports.table, 'tag', accountId),
    accountBusinessHours(ports, accountId),
  ]);
  const contacts = await contactDirectory.matchingContacts(
    ports.table,
    accountId,
    () => accountServices(ports.table, accountId),
    { where: visibleWhere(viewer, q.where), order: q.order },
    () => readContactSnapshot(ports.storage, accountId),
  );
  const tagNames = new Map(tags.map((t) => [t.id, t.name]));
  const date = csvDateFormat(hours.timeZone);
  const now = ports.clock();
  const key = contactCsvObjectKey(accountId, ports.newId());
  const filename = `contatos-${now.toISOString().slice(0, 10)}.csv`;
  const { size } = await ports.storage.putStream(key, contactCsvChunks(contacts, tagNames, date), 'text/csv');
  return { url: await ports.storage.downloadUrl(key, filename, 'text/csv'), filename, rows: contacts.length, bytes: size };
}
