/**
 * Values that repeat across contacts (the account and connection ids, assignees, departments, the
 * enumerations), kept once per process instead of once per contact. A directory view holds every
 * contact's fields for as long as it is loaded, and a snapshot decode or an item read makes a new
 * string for every value; the directory's size estimate counts these as shared (viewBytes).
 */
import type { ContactFields } from '#db/contacts.ts';
import { stringBytes } from './directory-memory.ts';

/** The contact fields whose strings are shared. */
const sharedFields = [
  'accountId',
  'serviceId',
  'contactType',
  'phoneCountry',
  'gender',
  'status',
  'userId',
  'departmentId',
  'archivedReason',
  'optedOutWord',
] as const satisfies readonly (keyof ContactFields)[];

/** Distinct values kept; past it the table starts again (values already shared stay shared). */
const maxValues = 100_000;

export class SharedValues {
  private values = new Map<string, string>();

  intern(value: string): string {
    const kept = this.values.get(value);
    if (kept !== undefined) return kept;
    if (this.values.size >= maxValues) this.values.clear();
    this.values.set(value, value);
    return value;
  }

  /** Puts the shared copies in place in `item`, which the caller owns (its values do not change). */
  internFields(item: ContactFields): void {
    const fields = item as unknown as Record<string, unknown>;
    for (const field of sharedFields) {
      const value = fields[field];
      if (typeof value === 'string') fields[field] = this.intern(value);
    }
    if (item.lastMessage) item.lastMessage.type = this.intern(item.lastMessage.type) as typeof item.lastMessage.type;
  }
}

/** The bytes of an item's strings that `internFields` shares: what an estimate of one contact should not count. */
export function sharedBytes(item: ContactFields): number {
  const fields = item as unknown as Record<string, unknown>;
  let bytes = 0;
  for (const field of sharedFields) {
    const value = fields[field];
    if (typeof value === 'string') bytes += stringBytes(value);
  }
  return item.lastMessage ? bytes + stringBytes(item.lastMessage.type) : bytes;
}
