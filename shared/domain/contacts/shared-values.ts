/**
 * Values that repeat across contacts (the account and connection ids, assignees, departments, the
 * enumerations), kept once per process instead of once per contact. A directory view holds every
 * contact's fields for as long as it is loaded, and a snapshot decode or an item read makes a new
 * string for every value; the directory's size estimate counts these as shared (viewBytes).
 */
import type { ContactFields } from '#db/contacts.ts';
import { stringBytes, valueBytes } from './directory-memory.ts';

/** An `{ id, name }` object's own bytes, its strings apart. */
const refObjectBytes = valueBytes({ id: null, name: null });

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

/** The contact fields holding `{ id, name }` as of an assignment: one object per assignee or department, shared. */
const sharedRefs = ['user', 'department'] as const satisfies readonly (keyof ContactFields)[];
type Ref = { id: string; name: string };

export class SharedValues {
  private values = new Map<string, string>();
  private refs = new Map<string, Ref>();

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
    for (const field of sharedRefs) {
      const ref = fields[field] as Ref | null | undefined;
      if (ref && typeof ref.id === 'string' && typeof ref.name === 'string' && Object.keys(ref).length === 2) fields[field] = this.internRef(ref);
    }
    if (item.lastMessage) {
      item.lastMessage.type = this.intern(item.lastMessage.type) as typeof item.lastMessage.type;
      // The last message's time is the contact's lastMessageAt, read as a second string.
      if (item.lastMessage.timestamp === item.lastMessageAt && item.lastMessageAt !== null) item.lastMessage.timestamp = item.lastMessageAt;
    }
  }

  private internRef(ref: Ref): Ref {
    const key = `${ref.id}\u0000${ref.name}`;
    const kept = this.refs.get(key);
    if (kept) return kept;
    if (this.refs.size >= maxValues) this.refs.clear();
    const shared = Object.freeze({ id: this.intern(ref.id), name: ref.name });
    this.refs.set(key, shared);
    return shared;
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
  // A shared assignee or department: its object is not this contact's. Its strings stay counted: the
  // estimate must stay above the heap, and V8 already shares some short strings a decode makes.
  for (const field of sharedRefs) {
    const ref = fields[field] as Ref | null | undefined;
    if (ref && Object.isFrozen(ref)) bytes += refObjectBytes;
  }
  // The last message's timestamp, held once with lastMessageAt (internFields), stays counted twice: a
  // margin at small views, where the view's fixed costs weigh more (bench/results.md, directory memory).
  return item.lastMessage ? bytes + stringBytes(item.lastMessage.type) : bytes;
}
