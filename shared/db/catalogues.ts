/**
 * The team inbox's catalogues (departments, tags, quick replies, contact segments): small per-account collections
 * whose items carry a name unique inside the account (a shortcut for quick replies), guarded by a
 * `catalogueName` item written in the same transaction as the item.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Table } from './client.ts';
import { type CatalogueKind, entityTypes, keys } from './keys.ts';
import { deleteStep, putNewStep, refusedBy, replaceIfUnchangedStep, writeTogether } from './transaction.ts';
import { queryAll } from './users.ts';

const typeOf = { department: entityTypes.department, tag: entityTypes.tag, quickReply: entityTypes.quickReply, segment: entityTypes.segment } as const;

/** What every catalogue item has; `unique` is the folded name its guard holds. */
export interface CatalogueFields {
  id: string;
  accountId: string;
  unique: string;
  createdAt: string;
  updatedAt: string;
}

export type CatalogueItem<F extends CatalogueFields> = F & { pk: string; sk: string; type: string };

export function catalogueItem<F extends CatalogueFields>(kind: CatalogueKind, fields: F): CatalogueItem<F> {
  return { ...keys.catalogueItem(kind, fields.accountId, fields.id), type: typeOf[kind], ...fields };
}

export function listCatalogue<F extends CatalogueFields>(table: Table, kind: CatalogueKind, accountId: string): Promise<CatalogueItem<F>[]> {
  const { pk, skPrefix } = keys.catalogue(kind, accountId);
  return queryAll<CatalogueItem<F>>(table, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': pk, ':p': skPrefix },
  });
}

export async function getCatalogueItem<F extends CatalogueFields>(
  table: Table,
  kind: CatalogueKind,
  accountId: string,
  id: string,
): Promise<CatalogueItem<F> | undefined> {
  const { Item } = await table.doc.send(new GetCommand({ TableName: table.name, Key: keys.catalogueItem(kind, accountId, id), ConsistentRead: true }));
  return Item as CatalogueItem<F> | undefined;
}

function nameGuard(kind: CatalogueKind, item: CatalogueFields) {
  return { ...keys.catalogueName(kind, item.accountId, item.unique), type: entityTypes.uniqueName, id: item.id };
}

/** Why a catalogue write was refused: the name is another item's, or the item changed (or went) meanwhile. */
export type CatalogueRefusal = 'nameTaken' | 'changed';

async function attempt(write: () => Promise<void>): Promise<CatalogueRefusal | null> {
  try {
    await write();
    return null;
  } catch (error) {
    if (refusedBy(error, 'name')) return 'nameTaken';
    if (refusedBy(error)) return 'changed';
    throw error;
  }
}

export function createCatalogueItem<F extends CatalogueFields>(table: Table, kind: CatalogueKind, item: CatalogueItem<F>): Promise<CatalogueRefusal | null> {
  return attempt(() => writeTogether(table, { item: putNewStep(item), name: putNewStep(nameGuard(kind, item)) }));
}

/** Writes an item's next version when it is still the one read; a new name moves its guard. */
export function replaceCatalogueItem<F extends CatalogueFields>(
  table: Table,
  kind: CatalogueKind,
  current: CatalogueItem<F>,
  next: CatalogueItem<F>,
): Promise<CatalogueRefusal | null> {
  const renamed = current.unique !== next.unique;
  return attempt(() =>
    writeTogether(table, {
      item: replaceIfUnchangedStep(next, current.updatedAt),
      name: renamed && putNewStep(nameGuard(kind, next)),
      oldName: renamed && deleteStep(keys.catalogueName(kind, current.accountId, current.unique)),
    }),
  );
}

export function deleteCatalogueItem(table: Table, kind: CatalogueKind, current: CatalogueItem<CatalogueFields>): Promise<CatalogueRefusal | null> {
  return attempt(() =>
    writeTogether(table, {
      item: {
        Delete: {
          Key: keys.catalogueItem(kind, current.accountId, current.id),
          ConditionExpression: 'updatedAt = :seen',
          ExpressionAttributeValues: { ':seen': current.updatedAt },
        },
      },
      name: deleteStep(keys.catalogueName(kind, current.accountId, current.unique)),
    }),
  );
}
