/**
 * The contact directory: an in-memory view of an account's contacts, kept in step with the table by
 * reading only what changed since the last read (gsi2 orders every contact write and deletion by
 * the table's clock, see shared/db/table-clock.ts). Listing, filtering, searching (`like` on name
 * and e-mail, case- and accent-insensitive, narrowed by a trigram index) and ordering 25,000
 * contacts then costs one small Query and some array work, where DynamoDB alone could neither
 * search inside names nor count a filtered list.
 *
 * One directory lives per process (a warm Lambda container, or the local runtime); a cold one
 * loads the account's contacts once. It keeps its views under a byte budget derived from the
 * process's memory (directory-memory.ts), forgetting the least recently used accounts first, those
 * used only once before those in use (a segmented LRU, ADR-0241): a forgotten account's next list
 * loads again, from its snapshot.
 */
import { setImmediate as turn } from 'node:timers/promises';
import type { Contact } from '#contracts/contacts.ts';
import type { ListAnswer } from '#contracts/entities.ts';
import type { ListQuery } from '#contracts/list-query.ts';
import type { Table } from '#db/client.ts';
import { allContacts, contactChangesSince, contactFields, restampChange, type ContactFields, type ContactItem, type ContactTombstone } from '#db/contacts.ts';
import type { ServiceItem } from '#db/services.ts';
import { tableNow } from '#db/table-clock.ts';
import {
  compareSortKeys,
  compileWhere,
  decodeCursor,
  encodeCursor,
  fold,
  orderComparator,
  pathReader,
  sortKeyReader,
  withIdTieBreak,
  type FieldAccess,
} from '../list-query.ts';
import { searchPlan } from './contact-search.ts';
import { directoryBudgetBytes, mapEntryBytes, stringBytes, valueBytes } from './directory-memory.ts';
import { SharedValues, sharedBytes } from './shared-values.ts';
import type { ContactSnapshot } from './contact-snapshot.ts';
import { toContact } from './present-contact.ts';
import { TrigramIndex } from './trigram-index.ts';

/**
 * Each delta read starts this long before the previous read started, to catch writes that reached
 * the index late (index propagation, the table clock's half-second reading error, a write stamped
 * just before it was sent). Changes are stamped by the table's clock, so writers' clocks do not
 * widen it; the re-read set is the writes of this window, skipped by version.
 */
export const overlapMs = 3_000;
/** Tombstones live a week; a view older than that reloads in full. */
export const tombstoneLifetimeSeconds = 7 * 24 * 60 * 60;
const maxViewAgeMs = (tombstoneLifetimeSeconds - 24 * 60 * 60) * 1000;

/** How many of a view's entries hold an answered contact, shared by its entries so a lazily made one counts. */
interface Meter {
  contacts: number;
}

/**
 * A view's average entry size, estimated from a sample of its entries (every entry's own estimate
 * would cost a cold load of 25,000 contacts tens of milliseconds), taken again once the view's size
 * has moved by a tenth.
 */
interface Sample {
  entryBytes: number;
  contactBytes: number;
  size: number;
}

/** Entries a size sample reads, spread evenly over the view. */
const sampled = 64;

interface Entry {
  slot: number;
  item: ContactFields;
  service: ServiceItem | undefined;
  /** The contact as answered, made when first needed (most entries are only sorted and filtered). */
  contact?: Contact;
  folded: { name: string; email: string | null; phone: string | null };
  meter: Meter;
}

/** An entry object's own fields, its place in the entries map and in the slots array. */
const entryOverhead = 24 + 6 * 8 + mapEntryBytes + 8;

interface Sorted {
  entries: Entry[];
  /** Each slot's position in `entries`, to order a search's few matches without sorting names. */
  rank: Int32Array;
  /** The order's comparison, ties broken by id: a total order, so a moved entry lands where a full sort puts it. */
  compare: (a: Entry, b: Entry) => number;
  /** Taken from a snapshot and not yet checked against `compare` (checked when first read: adoptSorted). */
  unchecked?: boolean;
}

interface AccountView {
  entries: Map<string, Entry>;
  meter: Meter;
  sample: Sample | undefined;
  /** Entries by slot (the trigram index's numbering); freed slots are reused. */
  slots: (Entry | undefined)[];
  free: number[];
  /**
   * Built by the second search that can use it (a list needs none, and a cold process's first
   * search scans rather than wait for it), then kept per change.
   */
  index: TrigramIndex | undefined;
  searches: number;
  /** When the latest read of the table started (epoch ms, table clock). */
  readAt: number;
  /** When the data the view started from was read (its full load, or its snapshot's position). */
  loadedAt: number;
  servicesSignature: string;
  /**
   * Sorted lists by order signature, kept across changes: a sync moves the entries it changed
   * (a send changes one contact) instead of sorting every contact again, which held the runtime's
   * event loop for hundreds of milliseconds per change under load (ADR-0138).
   */
  sorted: Map<string, Sorted>;
  /** Entries replaced or removed, and entries put, since the sorted lists were last brought up to date. */
  dropped: Set<Entry>;
  added: Set<Entry>;
  /**
   * Every match of recent queries (order and filter), in order, dropped on any change: the next
   * pages of a list, and the same list polled by many screens, are then a slice.
   */
  matches: Map<string, Entry[]>;
}

/**
 * Entries a cold load puts between two turns of the event loop: one process answers many accounts
 * (the local runtime), and a 50,000-contact load in one piece held it for hundreds of milliseconds.
 */
const entriesPerTurn = 5000;

/** The share of the budget the hot accounts' views may keep together (the rest is for accounts used once). */
const protectedShare = 0.8;
/** Forgotten accounts remembered, to know one that comes back. */
const maxGhosts = 4096;

/** Recent queries whose matches a view keeps. */
const keptQueries = 16;

/** What the last sync of an account read (for tests and the cold-start bench). */
export interface SyncReport {
  /** How the view started, when this sync started it: every contact item, or a snapshot. */
  loaded: 'items' | 'snapshot' | false;
  /** Items read: every contact on a full load, else the change index's answer. */
  changesRead: number;
  changesApplied: number;
}

/** Where a cold directory may start from instead of reading every contact (contact-snapshot.ts). */
export type SnapshotReader = () => Promise<ContactSnapshot | null>;

const contactOf = (e: Entry): Contact => {
  if (!e.contact) {
    e.contact = toContact(e.item, e.service);
    e.meter.contacts++;
  }
  return e.contact;
};

/** Forgets an entry's answered contact (its connection changed): made again when next needed. */
function dropContact(e: Entry): void {
  if (!e.contact) return;
  e.meter.contacts--;
  delete e.contact;
}

/** A view's estimated size: its entries, its sorted lists and kept matches, its search index. */
function viewBytes(view: AccountView): number {
  const size = view.entries.size;
  let sample = view.sample;
  if (!sample || Math.abs(size - sample.size) > sample.size / 10) {
    let entryBytes = 0;
    let contactBytes = 0;
    let n = 0;
    const stride = Math.max(1, Math.floor(view.slots.length / sampled));
    for (let slot = 0; slot < view.slots.length && n < sampled; slot += stride) {
      const e = view.slots[slot];
      if (!e) continue;
      // Strings shared with other contacts (shared-values.ts) are not this entry's. (The folded
      // phone is the stored one, counted twice: it keeps the estimate above the heap at 5,000.)
      const itemBytes = valueBytes(e.item) - sharedBytes(e.item);
      const foldedBytes = valueBytes(e.folded) - (e.folded.email !== null && e.folded.email === e.item.email ? stringBytes(e.folded.email) : 0);
      entryBytes += entryOverhead + itemBytes + foldedBytes;
      // An answered contact carries the item's fields again, in the contract's shape.
      contactBytes += itemBytes;
      n++;
    }
    sample = view.sample = { entryBytes: n ? entryBytes / n : 0, contactBytes: n ? contactBytes / n : 0, size };
  }
  let bytes = 1024 + size * sample.entryBytes + view.meter.contacts * sample.contactBytes;
  for (const sorted of view.sorted.values()) bytes += 160 + sorted.entries.length * 8 + sorted.rank.byteLength;
  for (const found of view.matches.values()) bytes += 32 + mapEntryBytes + found.length * 8;
  return bytes + (view.index?.estimatedBytes() ?? 0);
}

/** Contact paths read straight from the stored fields, so filtering and sorting make no contact objects. */
const itemPaths: Record<string, (item: ContactFields) => unknown> = {
  id: (i) => i.id,
  name: (i) => i.name,
  type: (i) => i.contactType,
  'data.email': (i) => i.email,
  'data.phoneNumber': (i) => i.phoneNumber,
  idFromService: (i) => i.idFromService,
  gender: (i) => i.gender,
  serviceId: (i) => i.serviceId,
  archivedAt: (i) => i.archivedAt,
  archivedReason: (i) => i.archivedReason,
  isOnline: (i) => i.isOnline,
  unread: (i) => i.unread,
  lastMessageAt: (i) => i.lastMessageAt,
  lastInboundAt: (i) => i.lastInboundAt ?? null,
  optedOutAt: (i) => i.optedOutAt ?? null,
  departmentId: (i) => i.departmentId ?? null,
  // The inbox's tabs and badges filter every contact by these: read from the contact as answered,
  // each list would make an answered contact of every entry, about doubling the view.
  status: (i) => i.status ?? 'open',
  userId: (i) => i.userId ?? null,
  tags: (i) => i.tagIds ?? [],
  createdAt: (i) => i.createdAt,
  updatedAt: (i) => i.updatedAt,
};

function readerOf(path: string): (e: Entry) => unknown {
  const fromItem = Object.hasOwn(itemPaths, path) ? itemPaths[path] : undefined;
  if (fromItem) return (e) => fromItem(e.item);
  // The channel filter ('Canal'), from the entry's connection as toContact answers it.
  if (path === 'service.type') return (e) => e.service?.channelType ?? null;
  const read = pathReader(path);
  return (e) => read(contactOf(e));
}

const access: FieldAccess<Entry> = {
  reader: readerOf,
  foldedReader: (path) =>
    path === 'name' ? (e) => e.folded.name : path === 'data.email' ? (e) => e.folded.email : path === 'data.phoneNumber' ? (e) => e.folded.phone : undefined,
  sortReader: (path) => (path === 'name' ? (e) => e.folded.name : readerOf(path)),
};

/** Each slot's position in a sorted list. */
function ranks(entries: Entry[], slots: number): Int32Array {
  const rank = new Int32Array(slots);
  entries.forEach((e, i) => {
    rank[e.slot] = i;
  });
  return rank;
}

/** The text the trigram index holds for an entry: name and e-mail, folded. */
const indexedText = (e: Entry) => (e.folded.email === null ? e.folded.name : `${e.folded.name}\n${e.folded.email}`);

const foldedOf = (item: ContactFields): Entry['folded'] => ({ name: fold(item.name), email: item.email ? fold(item.email) : null, phone: item.phoneNumber });

function emptyView(readAt: number, loadedAt: number, servicesSignature: string): AccountView {
  return {
    entries: new Map(),
    meter: { contacts: 0 },
    sample: undefined,
    slots: [],
    free: [],
    index: undefined,
    searches: 0,
    readAt,
    loadedAt,
    servicesSignature,
    sorted: new Map(),
    dropped: new Set(),
    added: new Set(),
    matches: new Map(),
  };
}

/** What a directory holds against its budget (the tenant bench and the tests read it). */
export interface DirectoryMemory {
  accounts: number;
  estimatedBytes: number;
  budgetBytes: number;
  /** Views forgotten to stay within the budget since the directory was made. */
  evictions: number;
}

export class ContactDirectory {
  /** Views by account, least recently used first (a use moves its view to the end). */
  private views = new Map<string, AccountView>();
  private pending = new Map<string, Promise<AccountView>>();
  private reports = new Map<string, SyncReport>();
  private evictions = 0;
  /** Values repeated across contacts, kept once (every caller hands `put` an item of its own). */
  private shared = new SharedValues();
  /**
   * Accounts used again while loaded, or loaded again soon after being forgotten: the ones a
   * stream of accounts used once (a morning's first opens, a sweep over every tenant) may not push
   * out. Evicted last, and held to `protectedShare` of the budget (segmented LRU).
   */
  private hot = new Set<string>();
  /** Accounts recently forgotten, oldest first: one loaded again is used often, so it comes back hot. */
  private ghosts = new Set<string>();

  /** `now` is the table's clock (the change index is stamped by it); `budgetBytes` caps what the views hold together. */
  constructor(
    private readonly now: () => number = tableNow,
    private readonly budgetBytes: number = directoryBudgetBytes(),
  ) {}

  /** `folded` is the entry's own (a snapshot's decoded one is kept as it is): never changed after. */
  private put(view: AccountView, item: ContactFields, services: Map<string, ServiceItem>, folded = foldedOf(item)): void {
    this.shared.internFields(item);
    // Most e-mails are folded already: the stored string, once.
    if (folded.email !== null && folded.email === item.email) folded.email = item.email;
    const current = view.entries.get(item.id);
    const slot = current?.slot ?? view.free.pop() ?? view.slots.length;
    const next: Entry = { slot, item, service: services.get(item.serviceId), folded, meter: view.meter };
    if (current?.contact) view.meter.contacts--;
    view.entries.set(item.id, next);
    view.slots[slot] = next;
    view.index?.set(slot, current && indexedText(current), indexedText(next));
    if (view.sorted.size) {
      if (current && !view.added.delete(current)) view.dropped.add(current);
      view.added.add(next);
    }
  }

  private remove(view: AccountView, current: Entry): void {
    if (view.sorted.size && !view.added.delete(current)) view.dropped.add(current);
    view.entries.delete(current.item.id);
    if (current.contact) view.meter.contacts--;
    view.slots[current.slot] = undefined;
    view.free.push(current.slot);
    view.index?.set(current.slot, indexedText(current), undefined);
  }

  /** Applies what the change index answered; answers how many changes took effect. */
  private async apply(table: Table, view: AccountView, changes: (ContactItem | ContactTombstone)[], services: Map<string, ServiceItem>): Promise<number> {
    let applied = 0;
    const ahead = new Date(view.readAt + overlapMs).toISOString();
    const stray: (ContactItem | ContactTombstone)[] = [];
    for (const change of changes) {
      // Stamped ahead of the table's clock (by a writer's own clock, before the table's stamped
      // changes): moved back to now, so it is not read again on every sync until its time comes.
      if (change.gsi2sk.slice(0, ahead.length) > ahead) stray.push(change);
      const current = view.entries.get(change.id);
      if (change.type === 'ContactTombstone') {
        if (current && current.item.updatedAt <= change.deletedAt) {
          this.remove(view, current);
          applied++;
        }
      } else if (!current || current.item.updatedAt < change.updatedAt) {
        this.put(view, contactFields(change), services);
        applied++;
      }
    }
    await Promise.all(stray.map((change) => restampChange(table, change, ahead)));
    return applied;
  }

  /** A cold view: from the snapshot and the changes since it when there is a usable one, else from every contact item. */
  private async load(
    table: Table,
    accountId: string,
    services: Map<string, ServiceItem>,
    signature: string,
    readSnapshot: SnapshotReader | undefined,
  ): Promise<AccountView> {
    const readAt = this.now();
    const snapshot = readSnapshot && (await readSnapshot());
    if (snapshot && readAt - snapshot.position <= maxViewAgeMs) {
      const view = emptyView(snapshot.position, snapshot.position, signature);
      for (const [i, { fields, folded }] of snapshot.contacts.entries()) {
        if (i && i % entriesPerTurn === 0) await turn();
        this.put(view, fields, services, folded);
      }
      const inSnapshotOrder = [...view.entries.values()];
      for (const { order, rows } of snapshot.orders ?? []) this.adoptSorted(view, order, rows ? rows.map((row) => inSnapshotOrder[row]) : inSnapshotOrder);
      const changes = await contactChangesSince(table, accountId, new Date(snapshot.position - overlapMs).toISOString());
      view.readAt = readAt;
      const applied = await this.apply(table, view, changes, services);
      this.reorder(view);
      this.reports.set(accountId, { loaded: 'snapshot', changesRead: changes.length, changesApplied: applied });
      return view;
    }
    const view = emptyView(readAt, readAt, signature);
    const items = await allContacts(table, accountId);
    for (const [i, item] of items.entries()) {
      if (i && i % entriesPerTurn === 0) await turn();
      this.put(view, contactFields(item), services);
    }
    this.reports.set(accountId, { loaded: 'items', changesRead: items.length, changesApplied: items.length });
    return view;
  }

  private async sync(table: Table, accountId: string, loadServices: () => Promise<ServiceItem[]>, readSnapshot?: SnapshotReader): Promise<AccountView> {
    const view0 = this.views.get(accountId);
    const readAt = this.now();
    const fresh = view0 && readAt - view0.loadedAt <= maxViewAgeMs;
    // The connections and the contact changes (or the snapshot) are read at the same time.
    const [services, changes, snapshot] = await Promise.all([
      loadServices(),
      fresh ? contactChangesSince(table, accountId, new Date(view0.readAt - overlapMs).toISOString()) : undefined,
      fresh ? undefined : readSnapshot?.(),
    ]);
    const byId = new Map(services.map((s) => [s.id, s]));
    const signature = services
      .map((s) => `${s.id}:${s.updatedAt}`)
      .sort()
      .join(',');
    let view = view0;
    if (!view || !changes) {
      view = await this.load(table, accountId, byId, signature, snapshot === undefined ? undefined : async () => snapshot);
      this.views.set(accountId, view);
      return view;
    }
    view.readAt = readAt;
    let applied = await this.apply(table, view, changes, byId);
    if (view.servicesSignature !== signature) {
      for (const e of view.entries.values()) {
        e.service = byId.get(e.item.serviceId);
        dropContact(e);
      }
      view.servicesSignature = signature;
      // An order may read the connection (through the answered contact): sorted again when asked.
      view.sorted.clear();
      applied++;
    }
    if (applied) {
      this.reorder(view);
      view.matches.clear();
    }
    this.reports.set(accountId, { loaded: false, changesRead: changes.length, changesApplied: applied });
    return view;
  }

  /**
   * The view of an account, brought up to date; concurrent callers share one read. Marks the view
   * the most recently used and forgets others, least recently used first, while the views hold
   * more than the budget; the view being answered stays even when it alone is over.
   */
  private async current(table: Table, accountId: string, loadServices: () => Promise<ServiceItem[]>, readSnapshot?: SnapshotReader): Promise<AccountView> {
    const loaded = this.views.has(accountId);
    let running = this.pending.get(accountId);
    if (!running) {
      running = this.sync(table, accountId, loadServices, readSnapshot).finally(() => this.pending.delete(accountId));
      this.pending.set(accountId, running);
    }
    const view = await running;
    if (this.views.get(accountId) === view) {
      this.views.delete(accountId);
      this.views.set(accountId, view);
      if (loaded || this.ghosts.delete(accountId)) this.hot.add(accountId);
    }
    this.keepWithinBudget(accountId);
    return view;
  }

  /**
   * Forgets views until they fit the budget: first the least recently used of the accounts used
   * once, then, only if that is not enough, of the hot ones; the hot ones together keep at most
   * `protectedShare` of the budget (beyond it, the least recently used hot one counts as used once).
   */
  private keepWithinBudget(inUse: string): void {
    const sizes = new Map<string, number>();
    let total = 0;
    let hotBytes = 0;
    for (const [accountId, view] of this.views) {
      const bytes = viewBytes(view);
      sizes.set(accountId, bytes);
      total += bytes;
      if (this.hot.has(accountId)) hotBytes += bytes;
    }
    for (const [accountId, bytes] of sizes) {
      if (hotBytes <= this.budgetBytes * protectedShare) break;
      if (accountId === inUse || !this.hot.delete(accountId)) continue;
      hotBytes -= bytes;
    }
    for (const hotOnes of [false, true]) {
      for (const [accountId, bytes] of sizes) {
        if (total <= this.budgetBytes) return;
        if (accountId === inUse || this.hot.has(accountId) !== hotOnes) continue;
        total -= bytes;
        this.forget(accountId);
      }
    }
  }

  private forget(accountId: string): void {
    this.views.delete(accountId);
    this.reports.delete(accountId);
    this.hot.delete(accountId);
    this.evictions++;
    this.ghosts.delete(accountId);
    this.ghosts.add(accountId);
    if (this.ghosts.size > maxGhosts) this.ghosts.delete(this.ghosts.values().next().value!);
  }

  /** The accounts whose views are loaded, least recently used first (the tenant bench tells evicted accounts by it). */
  loadedAccounts(): string[] {
    return [...this.views.keys()];
  }

  /** What the views hold against the budget. */
  memory(): DirectoryMemory {
    let estimatedBytes = 0;
    for (const view of this.views.values()) estimatedBytes += viewBytes(view);
    return { accounts: this.views.size, estimatedBytes, budgetBytes: this.budgetBytes, evictions: this.evictions };
  }

  /** The entries in the query's order made total by the id; one kept list per order, whether or not the caller named the id. */
  private sortedBy(view: AccountView, q: ListQuery): Sorted {
    const order = withIdTieBreak(q.order);
    const orderKey = JSON.stringify(order);
    let sorted = view.sorted.get(orderKey);
    if (sorted?.unchecked) {
      const { entries, compare } = sorted;
      delete sorted.unchecked;
      for (let i = 1; i < entries.length; i++) {
        if (compare(entries[i - 1]!, entries[i]!) >= 0) {
          sorted = undefined;
          break;
        }
      }
    }
    if (!sorted) {
      const compare = orderComparator(order, access);
      const entries = [...view.entries.values()].sort(compare);
      sorted = { entries, rank: ranks(entries, view.slots.length), compare };
      view.sorted.set(orderKey, sorted);
    }
    return sorted;
  }

  /**
   * Keeps a snapshot's order of its entries as the view's sorted list for `order` (made total by
   * the id), so a cold view's first list need not sort every contact. The list is checked when it is
   * first read, not here (a cold list reads one order of the two a snapshot holds): it must hold
   * every entry once, strictly in this directory's own order (one comparison a neighbouring pair,
   * where a sort takes about log2(n) an entry), else it is sorted again from the entries. Changes
   * applied before that check move entries in it by binary search as in any list (`reorder`); in a
   * list that was not in order, that leaves it out of order, which the check then finds.
   */
  private adoptSorted(view: AccountView, order: ListQuery['order'], entries: (Entry | undefined)[]): void {
    const key = JSON.stringify(order);
    if (view.sorted.has(key) || JSON.stringify(withIdTieBreak(order)) !== key || entries.length !== view.entries.size || entries.includes(undefined)) return;
    const sorted = entries as Entry[];
    view.sorted.set(key, { entries: sorted, rank: ranks(sorted, view.slots.length), compare: orderComparator(order, access), unchecked: true });
  }

  /** Moves the entries a sync changed within each sorted list: out where they were, in where their order puts them. */
  private reorder(view: AccountView): void {
    const { dropped, added } = view;
    if (!dropped.size && !added.size) return;
    for (const sorted of view.sorted.values()) {
      // Added entries are taken out too: a list sorted while the sync was applying may hold them already.
      const entries = sorted.entries.filter((e) => !dropped.has(e) && !added.has(e));
      for (const e of added) {
        let low = 0;
        let high = entries.length;
        while (low < high) {
          const middle = (low + high) >>> 1;
          if (sorted.compare(entries[middle]!, e) < 0) low = middle + 1;
          else high = middle;
        }
        entries.splice(low, 0, e);
      }
      sorted.entries = entries;
      sorted.rank = ranks(entries, view.slots.length);
    }
    dropped.clear();
    added.clear();
  }

  private indexOf(view: AccountView): TrigramIndex {
    if (!view.index) {
      view.index = new TrigramIndex();
      view.slots.forEach((e, slot) => {
        if (e) view.index!.append(slot, indexedText(e));
      });
    }
    return view.index;
  }

  /** Every entry matching a query's filter, in its order. */
  private matching(view: AccountView, q: ListQuery): Entry[] {
    const sorted = this.sortedBy(view, q);
    if (!Object.keys(q.where).length) return sorted.entries;
    const plan = searchPlan(q.where);
    const index = plan && (view.index || ++view.searches > 1) ? this.indexOf(view) : undefined;
    const slots = plan && index && new Set(plan.flatMap((literals) => index.candidates(literals) ?? []));
    const matches = compileWhere(q.where, access);
    if (!slots) return sorted.entries.filter(matches);
    const found: Entry[] = [];
    for (const slot of slots) {
      const e = view.slots[slot];
      if (e && matches(e)) found.push(e);
    }
    return found.sort((a, b) => sorted.rank[a.slot]! - sorted.rank[b.slot]!);
  }

  /**
   * The page of entries a query asks for (its order made total by the id), how many match, and the
   * cursor after the page: by page number, or just after the row a cursor names, found by its sort
   * key (so rows added or removed before it since do not shift the next page).
   */
  private select(view: AccountView, q: ListQuery): ListAnswer<Entry> {
    const key = JSON.stringify([q.order, q.where]);
    let found = view.matches.get(key);
    if (!found) {
      found = this.matching(view, q);
      if (view.matches.size >= keptQueries) view.matches.delete(view.matches.keys().next().value!);
      view.matches.set(key, found);
    }
    const keyOf = sortKeyReader(q.order, access);
    let start = q.page * q.perPage;
    if (q.after !== undefined) {
      const after = decodeCursor(q.after, q.order);
      // The first row past the cursor's key.
      let low = 0;
      let high = found.length;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (compareSortKeys(q.order, keyOf(found[middle]!), after, true) > 0) high = middle;
        else low = middle + 1;
      }
      start = low;
    }
    const data = found.slice(start, start + q.perPage);
    const last = data.at(-1);
    return { data, totalCount: found.length, nextCursor: last && start + data.length < found.length ? encodeCursor(q.order, keyOf(last)) : null };
  }

  async list(
    table: Table,
    accountId: string,
    loadServices: () => Promise<ServiceItem[]>,
    q: ListQuery,
    sign: (key: string, name: string, mimetype: string) => Promise<string>,
    readSnapshot?: SnapshotReader,
  ): Promise<ListAnswer<Contact>> {
    const view = await this.current(table, accountId, loadServices, readSnapshot);
    const page = this.select(view, { ...q, order: withIdTieBreak(q.order) });
    // Answering grew the view (a sorted order, a kept query, the search index, answered contacts):
    // the others make room now, not at the next request (1,000 tenants put the views 13 % over).
    this.keepWithinBudget(accountId);
    // Avatar URLs expire, so they are signed for the page being answered, never kept.
    const data = await Promise.all(
      page.data.map(async (e) => {
        if (!e.item.avatarKey) return contactOf(e);
        const url = await sign(e.item.avatarKey, 'avatar.jpg', 'image/jpeg');
        return { ...contactOf(e), avatar: { url }, avatarUrl: url };
      }),
    );
    return { data, totalCount: page.totalCount, nextCursor: page.nextCursor };
  }

  /**
   * Every contact a query's filter matches, in its order, without avatar links: what a list export
   * writes (ADR-0226), read from the view once rather than a page at a time.
   */
  async matchingContacts(
    table: Table,
    accountId: string,
    loadServices: () => Promise<ServiceItem[]>,
    q: Pick<ListQuery, 'where' | 'order'>,
    readSnapshot?: SnapshotReader,
  ): Promise<Contact[]> {
    const view = await this.current(table, accountId, loadServices, readSnapshot);
    const all = this.select(view, { where: q.where, order: withIdTieBreak(q.order), include: [], page: 0, perPage: Number.MAX_SAFE_INTEGER, withCount: true });
    this.keepWithinBudget(accountId);
    // Made for the export and let go: answered contacts kept on 50,000 entries would stay in the view's memory.
    return all.data.map((e) => e.contact ?? toContact(e.item, e.service));
  }

  /**
   * The account's view brought up to date, as a snapshot whose rows follow `order` (the list's
   * default order), with the rows' places in each of `alsoOrders` (the contacts screen's name
   * order): a cold view loaded from it keeps these as its sorted lists instead of sorting.
   */
  async snapshot(
    table: Table,
    accountId: string,
    loadServices: () => Promise<ServiceItem[]>,
    order: ListQuery['order'],
    readSnapshot?: SnapshotReader,
    alsoOrders: ListQuery['order'][] = [],
  ): Promise<ContactSnapshot> {
    const view = await this.current(table, accountId, loadServices, readSnapshot);
    const sortedIn = (o: ListQuery['order']) => this.sortedBy(view, { where: {}, include: [], order: o, page: 0, perPage: 1, withCount: false });
    const rows = sortedIn(order);
    const orders = [
      { order: withIdTieBreak(order) },
      ...alsoOrders.map((o) => ({ order: withIdTieBreak(o), rows: Array.from(sortedIn(o).entries, (e) => rows.rank[e.slot]!) })),
    ];
    return {
      accountId,
      position: view.readAt,
      contacts: rows.entries.map((e) => ({ fields: e.item, folded: e.folded })),
      orders,
    };
  }

  /** What the latest sync of an account read. */
  lastSync(accountId: string): SyncReport | undefined {
    return this.reports.get(accountId);
  }

  /** Forgets every view (tests, or memory pressure). */
  clear(): void {
    this.views.clear();
    this.reports.clear();
    this.hot.clear();
    this.ghosts.clear();
  }
}

/** The process's directory. */
export const contactDirectory = new ContactDirectory();
