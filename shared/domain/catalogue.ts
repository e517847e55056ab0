/**
 * The team inbox's per-account catalogues (departments, tags, quick replies: shared/db/catalogues.ts)
 * as the domain uses them: each kind's reads and its writes, which keep one name (or shortcut) per
 * kind in the account and refuse a write over a change made meanwhile, with the pt-BR answer to each
 * refusal. One kind's module supplies only what differs: its fields, its unique field and its text.
 */
import { errorTexts } from '#contracts/errors.ts';
import type { CatalogueKind } from '#db/keys.ts';
import {
  type CatalogueFields,
  type CatalogueItem,
  type CatalogueRefusal,
  catalogueItem,
  createCatalogueItem,
  deleteCatalogueItem,
  getCatalogueItem,
  listCatalogue,
  replaceCatalogueItem,
} from '#db/catalogues.ts';
import { fail } from './errors.ts';
import type { Ports } from './ports.ts';
import type { AccountSession } from './session.ts';

function refusalError(refusal: CatalogueRefusal, uniqueField: string, takenText: string) {
  return refusal === 'nameTaken'
    ? fail.invalid(errorTexts.invalidParams, [{ path: uniqueField, message: takenText }])
    : fail.invalid(errorTexts.invalidParams, [{ path: '', message: 'O registro foi alterado por outra pessoa. Tente de novo.' }]);
}

export interface CatalogueRules {
  readonly kind: CatalogueKind;
  /** The payload field whose value must be unique in the account (its path in a refusal). */
  readonly uniqueField: string;
  /** What a refusal for a taken value says ('Já existe uma etiqueta com este nome'). */
  readonly takenText: string;
}

/** The reads and writes of one kind of catalogue. */
export function catalogue<F extends CatalogueFields>(rules: CatalogueRules) {
  const { kind, uniqueField, takenText } = rules;
  const refuse = (refusal: CatalogueRefusal | null) => {
    if (refusal) throw refusalError(refusal, uniqueField, takenText);
  };
  return {
    all: (ports: Ports, accountId: string): Promise<CatalogueItem<F>[]> => listCatalogue<F>(ports.table, kind, accountId),
    find: (ports: Ports, accountId: string, id: string): Promise<CatalogueItem<F> | undefined> => getCatalogueItem<F>(ports.table, kind, accountId, id),
    /** One item of the caller's account; 404 when there is none. */
    async load(ports: Ports, session: AccountSession, id: string): Promise<CatalogueItem<F>> {
      const item = await getCatalogueItem<F>(ports.table, kind, session.accountId, id);
      if (!item) throw fail.notFound();
      return item;
    },
    /** A new item of the caller's account with these fields (`unique` is the folded unique value). */
    async create(ports: Ports, session: AccountSession, fields: Omit<F, 'id' | 'accountId' | 'createdAt' | 'updatedAt'>): Promise<CatalogueItem<F>> {
      const now = ports.clock().toISOString();
      const item = catalogueItem<F>(kind, { ...fields, id: ports.newId(), accountId: session.accountId, createdAt: now, updatedAt: now } as F);
      refuse(await createCatalogueItem(ports.table, kind, item));
      return item;
    },
    /** The item with these changes, written only over the version read. */
    async replace(ports: Ports, current: CatalogueItem<F>, changes: Partial<F>): Promise<CatalogueItem<F>> {
      const next = catalogueItem<F>(kind, { ...current, ...changes, updatedAt: ports.clock().toISOString() });
      refuse(await replaceCatalogueItem(ports.table, kind, current, next));
      return next;
    },
    async remove(ports: Ports, current: CatalogueItem<F>): Promise<void> {
      refuse(await deleteCatalogueItem(ports.table, kind, current));
    },
  };
}
