/**
 * The contact directory: an in-memory view of an account's contacts, kept in step with the table by
 * reading only what changed since the last read (gsi2 orders every contact write and deletion by
 * time). Listing, filtering, searching (`like` on name and e-mail, case- and accent-insensitive)
 * and ordering 25,000 contacts then costs one small Query and some array work, where DynamoDB
 * alone could neither search inside names nor count a filtered list.
 *
 * One directory lives per process (a warm Lambda container, or the local runtime); a cold one
 * loads the account's contacts once.
 */
import type { Contact } from '#contracts/contacts.ts';
import type { ListAnswer } from '#contracts/entities.ts';
import type { ListQuery } from '#contracts/list-query.ts';
import type { Table } from '#db/client.ts';
import { allContacts, contactChangesSince, toContact, type ContactItem } from '#db/contacts.ts';
import type { ServiceItem } from '#db/services.ts';
import { applyListQuery, fold, valueAt, type FieldAccess } from '../list-query.ts';

/** How far back each delta read looks again, to catch writes that reached the index late. */
const overlapMs = 10_000;
/** Tombstones live a week; a view older than that reloads in full. */
export const tombstoneLifetimeSeconds = 7 * 24 * 60 * 60;
const maxViewAgeMs = (tombstoneLifetimeSeconds - 24 * 60 * 60) * 1000;

interface Entry {
  item: ContactItem;
  contact: Contact;
  folded: { name: string; email: string | null; phone: string | null };
}

interface AccountView {
  entries: Map<string, Entry>;
  /** The latest change time seen. */
  seenUpTo: string;
  loadedAt: number;
  servicesSignature: string;
  /** Sorted lists by order signature, dropped on any change. */
  sorted: Map<string, Entry[]>;
}

const access: FieldAccess<Entry> = {
  valueAt: (e, path) => (path === 'service.type' ? e.contact.service?.type ?? null : valueAt(e.contact, path)),
  foldedAt: (e, path) =>
    path === 'name' ? e.folded.name : path === 'data.email' ? e.folded.email : path === 'data.phoneNumber' ? e.folded.phone : null,
  sortValueAt: (e, path) => (path === 'name' ? e.folded.name : path === 'service.type' ? e.contact.service?.type : valueAt(e.contact, path)),
};

export class ContactDirectory {
  private views = new Map<string, AccountView>();
  private pending = new Map<string, Promise<AccountView>>();

  constructor(private readonly now: () => number = Date.now) {}

  private entry(item: ContactItem, services: Map<string, ServiceItem>): Entry {
    return {
      item,
      contact: toContact(item, services.get(item.serviceId)),
      folded: { name: fold(item.name), email: item.email ? fold(item.email) : null, phone: item.phoneNumber },
    };
  }

  private async load(table: Table, accountId: string, services: Map<string, ServiceItem>, signature: string): Promise<AccountView> {
    const startedAt = new Date(this.now() - overlapMs).toISOString();
    const items = await allContacts(table, accountId);
    const entries = new Map(items.map((i) => [i.id, this.entry(i, services)]));
    const seenUpTo = items.reduce((max, i) => (i.updatedAt > max ? i.updatedAt : max), startedAt);
    return { entries, seenUpTo, loadedAt: this.now(), servicesSignature: signature, sorted: new Map() };
  }

  private async sync(table: Table, accountId: string, services: ServiceItem[]): Promise<AccountView> {
    const byId = new Map(services.map((s) => [s.id, s]));
    const signature = services.map((s) => `${s.id}:${s.updatedAt}`).sort().join(',');
    let view = this.views.get(accountId);
    if (!view || this.now() - view.loadedAt > maxViewAgeMs) {
      view = await this.load(table, accountId, byId, signature);
      this.views.set(accountId, view);
      return view;
    }
    const since = new Date(Date.parse(view.seenUpTo) - overlapMs).toISOString();
    const changes = await contactChangesSince(table, accountId, since);
    let changed = false;
    for (const change of changes) {
      if (change.type === 'ContactTombstone') {
        const current = view.entries.get(change.id);
        if (current && current.item.updatedAt <= change.deletedAt) {
          view.entries.delete(change.id);
          changed = true;
        }
        if (change.deletedAt > view.seenUpTo) view.seenUpTo = change.deletedAt;
      } else {
        const current = view.entries.get(change.id);
        if (!current || current.item.updatedAt < change.updatedAt) {
          view.entries.set(change.id, this.entry(change, byId));
          changed = true;
        }
        if (change.updatedAt > view.seenUpTo) view.seenUpTo = change.updatedAt;
      }
    }
    if (view.servicesSignature !== signature) {
      for (const [id, e] of view.entries) view.entries.set(id, this.entry(e.item, byId));
      view.servicesSignature = signature;
      changed = true;
    }
    if (changed) view.sorted.clear();
    return view;
  }

  /** The view of an account, brought up to date; concurrent callers share one read. */
  private async current(table: Table, accountId: string, services: ServiceItem[]): Promise<AccountView> {
    let running = this.pending.get(accountId);
    if (!running) {
      running = this.sync(table, accountId, services).finally(() => this.pending.delete(accountId));
      this.pending.set(accountId, running);
    }
    return running;
  }

  async list(table: Table, accountId: string, services: ServiceItem[], q: ListQuery): Promise<ListAnswer<Contact>> {
    const view = await this.current(table, accountId, services);
    const orderKey = JSON.stringify(q.order);
    let base = view.sorted.get(orderKey);
    if (!base) {
      base = applyListQuery([...view.entries.values()], { ...q, where: {}, page: 0, perPage: Number.MAX_SAFE_INTEGER }, access).data;
      view.sorted.set(orderKey, base);
    }
    const page = applyListQuery(base, { ...q, order: [] }, access);
    return { data: page.data.map((e) => e.contact), totalCount: page.totalCount };
  }

  /** Forgets every view (tests, or memory pressure). */
  clear(): void {
    this.views.clear();
  }
}

/** The process's directory. */
export const contactDirectory = new ContactDirectory();
