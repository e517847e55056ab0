/**
 * The Contatos screen's filters and a segment's (ADR-0226): one set of fields, written as
 * a `where` of the list query language (docs/product.md#lists-and-calls) and read back from one, so
 * a segment saved from the screen opens with the same fields filled. Dates are days in the
 * browser's zone: 'after' from the day's start, 'before' up to the day's start (that day excluded).
 */
import { containsPattern, type Where } from '#contracts/list-query.ts';

/** '' any; 'yes' / 'no' one side. */
export type Either = '' | 'yes' | 'no';

export interface ContactFilters {
  name: string;
  email: string;
  phone: string;
  /** A tag id: the contacts carrying it ('' for any). */
  tagId: string;
  departmentId: string;
  serviceId: string;
  /** `yyyy-mm-dd`: last message on or after that day / before it. */
  activeAfter: string;
  activeBefore: string;
  archived: Either;
  optedOut: Either;
}

/** The table's filters as it opens: none. */
export const emptyContactFilters: ContactFilters = {
  name: '',
  email: '',
  phone: '',
  tagId: '',
  departmentId: '',
  serviceId: '',
  activeAfter: '',
  activeBefore: '',
  archived: '',
  optedOut: '',
};

const dayStart = (day: string) => new Date(`${day}T00:00:00`).toISOString();
const isoDay = (iso: string) => {
  const d = new Date(iso);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};
const either = (value: Either) => (value === 'yes' ? { ne: null } : null);

export function contactWhere(filters: ContactFilters): Where {
  const where: Where = {};
  if (filters.name.trim()) where.name = { like: containsPattern(filters.name.trim()) };
  if (filters.email.trim()) where['data.email'] = { like: containsPattern(filters.email.trim()) };
  if (filters.phone.replace(/\D/g, '')) where['data.phoneNumber'] = { like: containsPattern(filters.phone.replace(/\D/g, '')) };
  if (filters.tagId) where.tags = filters.tagId;
  if (filters.departmentId) where.departmentId = filters.departmentId;
  if (filters.serviceId) where.serviceId = filters.serviceId;
  if (filters.activeAfter || filters.activeBefore) {
    where.lastMessageAt = {
      ...(filters.activeAfter ? { gte: dayStart(filters.activeAfter) } : {}),
      ...(filters.activeBefore ? { lt: dayStart(filters.activeBefore) } : {}),
    };
  }
  if (filters.archived) where.archivedAt = either(filters.archived);
  if (filters.optedOut) where.optedOutAt = either(filters.optedOut);
  return where;
}

/** The text a `%text%` pattern holds, its escapes undone; '' for any other shape. */
function containsText(value: unknown): string {
  const like = value !== null && typeof value === 'object' && 'like' in value ? (value as { like: unknown }).like : undefined;
  if (typeof like !== 'string' || !like.startsWith('%') || !like.endsWith('%')) return '';
  return like.slice(1, -1).replace(/\\(.)/g, '$1');
}

const eitherOf = (value: unknown): Either => (value === null ? 'no' : value !== undefined ? 'yes' : '');
const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** The fields a `where` made by `contactWhere` holds (what it cannot show is left empty). */
export function filtersOfWhere(where: Where): ContactFilters {
  const activity = (where.lastMessageAt ?? {}) as { gte?: unknown; lt?: unknown };
  return {
    name: containsText(where.name),
    email: containsText(where['data.email']),
    phone: containsText(where['data.phoneNumber']),
    tagId: text(where.tags),
    departmentId: text(where.departmentId),
    serviceId: text(where.serviceId),
    activeAfter: typeof activity.gte === 'string' ? isoDay(activity.gte) : '',
    activeBefore: typeof activity.lt === 'string' ? isoDay(activity.lt) : '',
    archived: eitherOf(where.archivedAt),
    optedOut: eitherOf(where.optedOutAt),
  };
}

/** Whether any filter is set (a segment needs one). */
export const hasFilters = (filters: ContactFilters) => Object.values(filters).some(Boolean);
