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
import { allContacts, contactChangesSince, type ContactItem } from '#db/contacts.ts';
import type { ServiceItem } from '#db/services.ts';
import { applyListQuery, fold, pathReader, type FieldAccess } from '../list-query.ts';
import { toContact } from './present-contact.ts';

/**
 * Each delta read starts this long before the previous read started, to catch writes that reached
 * the index late (index propagation, clocks of other writers).
 */
const overlapMs = 3_000;
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
  /** When the latest read of the table started (epoch ms). */
  readAt: number;
  loadedAt: number;
  servicesSignature: string;
  /** Sorted lists by order signature, dropped on any change. */
  sorted: Map<string, Entry[]>;
}

const access: FieldAccess<Entry> = {
  reader: (path) => {
    const read = pathReader(path);
    return (e) => read(e.contact);
  },
  foldedReader: (path) =>
    path === 'name' ? (e) => e.folded.name : path === 'data.email' ? (e) => e.folded.email : path === 'data.phoneNumber' ? (e) => e.folded.phone : undefined,
  sortReader: (path) => {
    if (path === 'name') return (e) => e.folded.name;
    const read = pathReader(path);
    return (e) => read(e.contact);
  },
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
    const readAt = this.now();
    const items = await allContacts(table, accountId);
    const entries = new Map(items.map((i) => [i.id, this.entry(i, services)]));
    return { entries, readAt, loadedAt: readAt, servicesSignature: signature, sorted: new Map() };
  }

  private async sync(table: Table, accountId: string, loadServices: () => Promise<ServiceItem[]>): Promise<AccountView> {
    const view0 = this.views.get(accountId);
    const fresh = view0 && this.now() - view0.loadedAt <= maxViewAgeMs;
    const readAt = this.now();
    // The connections and the contact changes are read at the same time.
    const [services, changes] = await Promise.all([
      loadServices(),
      fresh ? contactChangesSince(table, accountId, new Date(view0.readAt - overlapMs).toISOString()) : undefined,
    ]);
    const byId = new Map(services.map((s) => [s.id, s]));
    const signature = services
      .map((s) => `${s.id}:${s.updatedAt}`)
      .sort()
      .join(',');
    let view = view0;
    if (!view || !changes) {
      view = await this.load(table, accountId, byId, signature);
      this.views.set(accountId, view);
      return view;
    }
    let changed = false;
    view.readAt = readAt;
    for (const change of changes) {
      if (change.type === 'ContactTombstone') {
        const current = view.entries.get(change.id);
        if (current && current.item.updatedAt <= change.deletedAt) {
          view.entries.delete(change.id);
          changed = true;
        }
      } else {
        const current = view.entries.get(change.id);
        if (!current || current.item.updatedAt < change.updatedAt) {
          view.entries.set(change.id, this.entry(change, byId));
          changed = true;
        }
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
  private async current(table: Table, accountId: string, loadServices: () => Promise<ServiceItem[]>): Promise<AccountView> {
    let running = this.pending.get(accountId);
    if (!running) {
      running = this.sync(table, accountId, loadServices).finally(() => this.pending.delete(accountId));
      this.pending.set(accountId, running);
    }
    return running;
  }

  async list(
    table: Table,
    accountId: string,
    loadServices: () => Promise<ServiceItem[]>,
    q: ListQuery,
    sign: (key: string, name: string, mimetype: string) => Promise<string>,
  ): Promise<ListAnswer<Contact>> {
    const view = await this.current(table, accountId, loadServices);
    const orderKey = JSON.stringify(q.order);
    let base = view.sorted.get(orderKey);
    if (!base) {
      base = applyListQuery([...view.entries.values()], { ...q, where: {}, page: 0, perPage: Number.MAX_SAFE_INTEGER }, access).data;
      view.sorted.set(orderKey, base);
    }
    const page = applyListQuery(base, { ...q, order: [] }, access);
    // Avatar URLs expire, so they are signed for the page being answered, never kept.
    const data = await Promise.all(
      page.data.map(async (e) => {
        if (!e.item.avatarKey) return e.contact;
        const url = await sign(e.item.avatarKey, 'avatar.jpg', 'image/jpeg');
        return { ...e.contact, avatar: { url }, avatarUrl: url };
      }),
    );
    return { data, totalCount: page.totalCount };
  }

  /** Forgets every view (tests, or memory pressure). */
  clear(): void {
    this.views.clear();
  }
}

/** The process's directory. */
export const contactDirectory = new ContactDirectory();
