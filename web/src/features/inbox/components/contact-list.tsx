import { useEffect, useMemo, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { useVirtualizer } from '@tanstack/react-virtual';
import { ChevronDown, ListFilter, Search } from 'lucide-react';
import type { Contact } from '#contracts/contacts.ts';
import { conversationStatuses, type ConversationStatus, type InboxCounts } from '#contracts/conversation-labels.ts';
import { serviceTypeLabels, serviceTypes, type ServiceType } from '#contracts/service-labels.ts';
import type { Service } from '#contracts/services.ts';
import { CheckboxField, SelectField } from '#web/components/ui/field.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { cn } from '#web/lib/cn.ts';
import { observeRectAfterLayout, scrollAfterAttach } from '#web/lib/observe-rect.ts';
import { useAllTags, useContactTags } from '#web/api/tags.ts';
import { useAllDepartments } from '#web/api/departments.ts';
import { inboxSharedWhere, noDepartment, useInboxContacts, type InboxFilters } from '#web/features/inbox/api/get-inbox-contacts.ts';
import { useInboxCounts } from '#web/features/inbox/api/get-inbox-counts.ts';
import { ContactRow, contactRowHeight } from './contact-row.tsx';
import { InboxEmpty } from './inbox-empty.tsx';
import { InboxTabs, inboxTabId, inboxTabPanelId } from './inbox-tabs.tsx';

/** The status filter's options, plural as a list's heading reads. */
const statusLabels: Record<ConversationStatus, string> = { open: 'Abertas', pending: 'Pendentes', resolved: 'Resolvidas' };

function statusOptions(counts: InboxCounts[keyof InboxCounts] | undefined) {
  const label = (text: string, n: number | undefined) => (n === undefined ? text : `${text} (${n})`);
  return [...conversationStatuses.map((s) => ({ value: s, label: label(statusLabels[s], counts?.[s]) })), { value: '', label: label('Todas', counts?.total) }];
}

/** Rows rendered beyond the visible ones, each way. */
export const contactListOverscan = 3;

export interface ContactListProps {
  filters: InboxFilters;
  onFiltersChange: (filters: InboxFilters) => void;
  selectedId: string | undefined;
  services: Service[];
  onFirstContact?: (contact: Contact) => void;
}

/** The left pane: the tabs with their counts, the status, search and advanced filters, and the virtualised contact list. */
export function ContactList({ filters, onFiltersChange, selectedId, services, onFirstContact }: ContactListProps) {
  const [search, setSearch] = useState(filters.search);
  const [showFilters, setShowFilters] = useState(false);
  const query = useInboxContacts(filters);
  const sharedWhere = useMemo(() => inboxSharedWhere(filters), [filters]);
  const counts = useInboxCounts(sharedWhere).data;
  const tagList = useAllTags().data?.data;
  const tagsOf = useContactTags(tagList);
  const departments = useAllDepartments().data?.data ?? [];
  // Opening a conversation keeps the list's filters in the address.
  const locationSearch = useLocation().search;
  const contacts = useMemo(() => {
    const seen = new Set<string>();
    return (query.data?.pages ?? [])
      .flatMap((p) => p.data)
      .filter((c) => {
        if (seen.has(c.id)) return false;
        seen.add(c.id);
        return true;
      });
  }, [query.data]);
  const scrollRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const t = setTimeout(() => {
      if (search !== filters.search) onFiltersChange({ ...filters, search });
    }, 300);
    return () => clearTimeout(t);
  }, [search, filters, onFiltersChange]);

  const first = contacts[0];
  useEffect(() => {
    if (first) onFirstContact?.(first);
  }, [first, onFirstContact]);

  const virtualizer = useVirtualizer({
    count: contacts.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => contactRowHeight,
    // A phone shows about eight rows: three more each way cover a flick's first frame without
    // mounting a screenful of rows nobody sees (each costs its icons, link and DOM on load).
    overscan: contactListOverscan,
    initialRect: { width: 360, height: 700 },
    // No forced layout of the page as the list mounts: neither its size read nor its first scroll (lib/observe-rect.ts).
    observeElementRect: observeRectAfterLayout,
    scrollToFn: scrollAfterAttach,
    // Scroll events update the rows in React's normal batching, not in a flushSync render inside
    // the event: following a burst of messages scrolls on every frame.
    useFlushSync: false,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? 0;
  useEffect(() => {
    if (lastIndex >= contacts.length - 15 && query.hasNextPage && !query.isFetchingNextPage) void query.fetchNextPage();
  }, [lastIndex, contacts.length, query]);

  const activeFilters = [filters.departmentId, filters.tagId, filters.serviceId, filters.serviceType, filters.archived].filter(Boolean).length;

  return (
    <section className="flex h-full min-h-0 flex-col border-r border-border bg-surface" aria-label="Contatos">
      <div className="space-y-3 border-b border-border px-3 pt-3 pb-3">
        <div className="flex items-center justify-between gap-2">
          <h1 className="text-lg font-semibold tracking-tight text-fg">Chat</h1>
          <div className="relative">
            <label htmlFor="inbox-filter-status" className="sr-only">
              Status das conversas
            </label>
            <select
              id="inbox-filter-status"
              value={filters.status}
              onChange={(e) => onFiltersChange({ ...filters, status: e.target.value as InboxFilters['status'] })}
              className="h-8 appearance-none rounded-lg border border-border-strong bg-surface pr-8 pl-2.5 text-xs font-medium text-fg focus-visible:outline-2 focus-visible:outline-ring"
            >
              {statusOptions(counts?.[filters.tab]).map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
            <ChevronDown className="pointer-events-none absolute top-1/2 right-2 size-4 -translate-y-1/2 text-fg-muted" aria-hidden="true" />
          </div>
        </div>
        <InboxTabs tab={filters.tab} status={filters.status} counts={counts} onChange={(tab) => onFiltersChange({ ...filters, tab })} />
        <div className="flex gap-2">
          <div className="relative flex-1">
            <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-fg-muted" aria-hidden="true" />
            <label htmlFor="inbox-search" className="sr-only">
              Buscar contatos
            </label>
            <input
              id="inbox-search"
              type="search"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              placeholder="Buscar por nome ou email"
              className="h-9 w-full rounded-lg border border-border-strong bg-surface pr-3 pl-9 text-sm text-fg placeholder:text-fg-subtle focus-visible:outline-2 focus-visible:outline-ring"
            />
          </div>
          <button
            type="button"
            onClick={() => setShowFilters((v) => !v)}
            aria-expanded={showFilters}
            aria-controls="inbox-filters"
            className={cn(
              'relative flex h-9 items-center gap-1.5 rounded-lg border px-2.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-ring',
              activeFilters ? 'border-brand text-brand' : 'border-border-strong text-fg-muted hover:text-fg',
            )}
          >
            <ListFilter className="size-4" aria-hidden="true" />
            <span>Filtros{activeFilters ? ` (${activeFilters})` : ''}</span>
          </button>
        </div>
        {showFilters ? (
          <div id="inbox-filters" className="space-y-3 rounded-lg border border-border bg-bg-subtle p-3">
            <SelectField
              id="inbox-filter-department"
              label="Departamento"
              value={filters.departmentId}
              onChange={(e) => onFiltersChange({ ...filters, departmentId: e.target.value })}
              options={[
                { value: '', label: 'Todos os departamentos' },
                { value: noDepartment, label: 'Sem departamento' },
                ...departments.map((d) => ({ value: d.id, label: d.archivedAt ? `${d.name} (arquivado)` : d.name })),
              ]}
            />
            <SelectField
              id="inbox-filter-tag"
              label="Etiqueta"
              value={filters.tagId}
              onChange={(e) => onFiltersChange({ ...filters, tagId: e.target.value })}
              options={[{ value: '', label: 'Todas as etiquetas' }, ...(tagList ?? []).map((t) => ({ value: t.id, label: t.name }))]}
            />
            <SelectField
              id="inbox-filter-service"
              label="Conexão"
              value={filters.serviceId}
              onChange={(e) => onFiltersChange({ ...filters, serviceId: e.target.value })}
              options={[{ value: '', label: 'Todas as conexões' }, ...services.map((s) => ({ value: s.id, label: s.name }))]}
            />
            <SelectField
              id="inbox-filter-type"
              label="Tipo"
              value={filters.serviceType}
              onChange={(e) => onFiltersChange({ ...filters, serviceType: e.target.value as '' | ServiceType })}
              options={[{ value: '', label: 'Todos os tipos' }, ...serviceTypes.map((t) => ({ value: t, label: serviceTypeLabels[t] }))]}
            />
            <CheckboxField
              id="inbox-filter-archived"
              label="Mostrar contatos arquivados"
              checked={filters.archived}
              onChange={(e) => onFiltersChange({ ...filters, archived: e.target.checked })}
            />
          </div>
        ) : null}
      </div>
      <div
        ref={scrollRef}
        id={inboxTabPanelId}
        role="tabpanel"
        aria-labelledby={inboxTabId(filters.tab)}
        className="min-h-0 flex-1 overflow-y-auto"
        data-testid="inbox-contacts-scroll"
      >
        {query.isPending ? (
          <div className="flex items-center justify-center gap-2 py-10 text-sm text-fg-muted" role="status">
            <Spinner className="size-4 text-brand" /> Carregando...
          </div>
        ) : contacts.length === 0 ? (
          <InboxEmpty filters={filters} />
        ) : (
          <ul style={{ height: virtualizer.getTotalSize(), position: 'relative' }} aria-label="Conversas">
            {items.map((item) => {
              const contact = contacts[item.index]!;
              return (
                <li
                  key={contact.id}
                  style={{ position: 'absolute', top: 0, left: 0, width: '100%', height: contactRowHeight, transform: `translateY(${item.start}px)` }}
                >
                  <ContactRow contact={contact} selected={contact.id === selectedId} tags={tagsOf(contact)} search={locationSearch} />
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </section>
  );
}
