/**
 * Segments (ADR-0226): saved contact filters, a catalogue of the account (one name each,
 * guarded like a tag's), whose `where` is checked against the contacts list's fields when saved and
 * counted through the contact directory when read. Admins create, edit and delete; members read
 * (docs/product.md#roles-and-permissions).
 */
import type { ListAnswer } from '#contracts/entities.ts';
import { errorTexts } from '#contracts/errors.ts';
import type { ListQuery, Where } from '#contracts/list-query.ts';
import { type Segment, type SegmentPayload, segmentTexts } from '#contracts/segments.ts';
import type { CatalogueFields, CatalogueItem } from '#db/catalogues.ts';
import { catalogue } from '../catalogue.ts';
import { viewerOf, type Viewer } from '../conversations/visibility.ts';
import { DomainError, fail } from '../errors.ts';
import { applyListQuery, fold, parseListQuery, type ListRules } from '../list-query.ts';
import type { Ports } from '../ports.ts';
import type { AccountSession } from '../session.ts';
import { contactListRules, listContacts } from './contacts.ts';

interface SegmentFields extends CatalogueFields {
  name: string;
  where: Where;
}
type SegmentItem = CatalogueItem<SegmentFields>;

export const segmentListRules: ListRules = {
  fields: ['id', 'name', 'createdAt', 'updatedAt'],
  defaultOrder: [['name', 'ASC']],
};

const segments = catalogue<SegmentFields>({ kind: 'segment', uniqueField: 'name', takenText: segmentTexts.nameTaken });

/** Refuses a `where` the contacts list would refuse (an unknown field, a malformed condition), on `where.<field>`. */
function checkedWhere(where: Where): Where {
  try {
    return parseListQuery(JSON.stringify({ where }), contactListRules).where;
  } catch (error) {
    if (error instanceof DomainError && error.details) {
      throw fail.invalid(
        errorTexts.invalidParams,
        error.details.map((d) => ({ ...d, path: d.path.replace(/^query\./, '') })),
      );
    }
    throw error;
  }
}

/** How many contacts a `where` matches, as the caller sees them, from the directory. */
export async function countContacts(ports: Ports, session: AccountSession, where: Where, viewer?: Viewer): Promise<number> {
  const q: ListQuery = { where, include: [], order: contactListRules.defaultOrder ?? [], page: 0, perPage: 1, withCount: true };
  return (await listContacts(ports, session, q, viewer)).totalCount;
}

async function present(ports: Ports, session: AccountSession, item: SegmentItem, viewer?: Viewer): Promise<Segment> {
  return {
    id: item.id,
    name: item.name,
    where: item.where,
    count: await countContacts(ports, session, item.where, viewer),
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  };
}

/** The account's segments, each with its live count (the page's only). */
export async function listSegments(ports: Ports, session: AccountSession, q: ListQuery): Promise<ListAnswer<Segment>> {
  const [items, viewer] = await Promise.all([segments.all(ports, session.accountId), viewerOf(ports, session)]);
  const page = applyListQuery(items, q);
  return { data: await Promise.all(page.data.map((item) => present(ports, session, item, viewer))), totalCount: page.totalCount };
}

export async function getSegment(ports: Ports, session: AccountSession, id: string): Promise<Segment> {
  return present(ports, session, await segments.load(ports, session, id));
}

export async function createSegment(ports: Ports, session: AccountSession, payload: SegmentPayload): Promise<Segment> {
  const where = checkedWhere(payload.where);
  return present(ports, session, await segments.create(ports, session, { unique: fold(payload.name), name: payload.name, where }));
}

export async function updateSegment(ports: Ports, session: AccountSession, id: string, payload: SegmentPayload): Promise<Segment> {
  const where = checkedWhere(payload.where);
  const current = await segments.load(ports, session, id);
  return present(ports, session, await segments.replace(ports, current, { name: payload.name, unique: fold(payload.name), where }));
}

export async function deleteSegment(ports: Ports, session: AccountSession, id: string): Promise<void> {
  await segments.remove(ports, await segments.load(ports, session, id));
}
