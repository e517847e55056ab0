import { memo, useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useVirtualizer } from '@tanstack/react-virtual';
import { ListFilter, Search } from 'lucide-react';
import type { Contact } from '#contracts/contacts.ts';
import { serviceTypeLabels, type Service, type ServiceType } from '#contracts/services.ts';
import { CheckboxField, SelectField } from '#web/components/ui/field.tsx';
import { Badge } from '#web/components/ui/misc.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { cn } from '#web/lib/cn.ts';
import { formatListTime } from '#web/lib/format.ts';
import type { InboxFilters } from '#web/features/inbox/api/get-inbox-contacts.ts';
import { useInboxContacts } from '#web/features/inbox/api/get-inbox-contacts.ts';
import { AckStatus } from './ack-status.tsx';
import { Avatar } from './avatar.tsx';
import { ChannelIcon } from './channel-icon.tsx';
import { summaryText } from './message-bubble.tsx';

const rowHeight = 72;

/**
 * One conversation in the list. Memoised on its two props: the cache keeps an unchanged contact's
 * object as it is (lib/list-cache.ts, placeContact), so a realtime event re-renders the row of the
 * contact it changed and no other, even when that contact moves to the top and the rest shift down
 * (the shift is the <li>'s transform, outside the row). Its time and summary are worked out here,
 * once per version of the contact.
 */
const ContactRow = memo(function ContactRow({ contact, selected }: { contact: Contact; selected: boolean }) {
  const last = contact.lastMessage;
  return (
    <Link
      to={`/inbox/${contact.id}`}
      aria-current={selected ? 'page' : undefined}
      className={cn(
        'flex h-[72px] items-center gap-3 border-b border-border px-3 transition-colors focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring',
        selected ? 'bg-brand-soft' : 'hover:bg-surface-2',
      )}
      data-testid="inbox-contact"
    >
      <Avatar name={contact.name} url={contact.avatar?.url ?? contact.avatarUrl} />
      <div className="min-w-0 flex-1">
        <div className="flex items-center gap-2">
          <span className="truncate text-sm font-semibold text-fg">{contact.name}</span>
          {contact.archivedAt ? (
            <Badge tone="warning" className="px-1.5 py-0 text-[10px]">
              Arquivado
            </Badge>
          ) : null}
          <span className={cn('ml-auto shrink-0 text-xs', contact.unread > 0 ? 'font-semibold text-brand' : 'text-fg-muted')}>
            {formatListTime(contact.lastMessageAt ?? last?.timestamp)}
          </span>
        </div>
        <div className="mt-0.5 flex items-center gap-1.5">
          <ChannelIcon type={contact.service?.type} className="shrink-0" />
          {last?.isFromMe ? <AckStatus ack={last.ack} className="shrink-0 text-fg-muted" /> : null}
          <span className="truncate text-xs text-fg-muted">{last ? summaryText(last) : 'Sem mensagens'}</span>
          {contact.unread > 0 ? (
            <span className="ml-auto flex h-5 min-w-5 shrink-0 items-center justify-center rounded-full bg-brand px-1.5 text-[11px] font-semibold text-brand-fg">
              {contact.unread > 99 ? '99+' : contact.unread}
              <span className="sr-only"> mensagens não lidas</span>
            </span>
          ) : null}
        </div>
      </div>
    </Link>
  );
});

export interface ContactListProps {
  filters: InboxFilters;
  onFiltersChange: (filters: InboxFilters) => void;
  selectedId: string | undefined;
  services: Service[];
  onFirstContact?: (contact: Contact) => void;
}

/** The left pane: the 'all' tab, search, advanced filters and the virtualised contact list. */
export function ContactList({ filters, onFiltersChange, selectedId, services, onFirstContact }: ContactListProps) {
  const [search, setSearch] = useState(filters.search);
  const [showFilters, setShowFilters] = useState(false);
  const query = useInboxContacts(filters);
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
  const total = query.data?.pages.at(-1)?.totalCount ?? 0;
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
    estimateSize: () => rowHeight,
    overscan: 10,
    initialRect: { width: 360, height: 700 },
    // Scroll events update the rows in React's normal batching, not in a flushSync render inside
    // the event: following a burst of messages scrolls on every frame.
    useFlushSync: false,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? 0;
  useEffect(() => {
    if (lastIndex >= contacts.length - 15 && query.hasNextPage && !query.isFetchingNextPage) void query.fetchNextPage();
  }, [lastIndex, contacts.length, query]);

  const activeFilters = (filters.serviceId ? 1 : 0) + (filters.serviceType ? 1 : 0) + (filters.archived ? 1 : 0);

  return (
    <section className="flex h-full min-h-0 flex-col border-r border-border bg-surface" aria-label="Contatos">
      <div className="space-y-3 border-b border-border px-3 pt-3 pb-3">
        <div className="flex items-center justify-between gap-2">
          <h1 className="text-lg font-semibold tracking-tight text-fg">Chat</h1>
          <div role="tablist" aria-label="Listas de conversas" className="flex rounded-lg bg-surface-2 p-0.5">
            <button type="button" role="tab" aria-selected="true" className="rounded-md bg-surface px-3 py-1 text-xs font-semibold text-fg shadow-sm">
              Todos <span className="font-normal text-fg-muted">({total})</span>
            </button>
          </div>
        </div>
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
              options={[
                { value: '', label: 'Todos os tipos' },
                { value: 'whatsapp', label: serviceTypeLabels.whatsapp },
                { value: 'telegram', label: serviceTypeLabels.telegram },
              ]}
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
      <div ref={scrollRef} className="min-h-0 flex-1 overflow-y-auto" data-testid="inbox-contacts-scroll">
        {query.isPending ? (
          <div className="flex items-center justify-center gap-2 py-10 text-sm text-fg-muted" role="status">
            <Spinner className="size-4 text-brand" /> Carregando...
          </div>
        ) : contacts.length === 0 ? (
          <p className="px-4 py-10 text-center text-sm text-fg-muted">Nenhum registro encontrado</p>
        ) : (
          <ul style={{ height: virtualizer.getTotalSize(), position: 'relative' }} aria-label="Conversas">
            {items.map((item) => {
              const contact = contacts[item.index]!;
              return (
                <li
                  key={contact.id}
                  style={{ position: 'absolute', top: 0, left: 0, width: '100%', height: rowHeight, transform: `translateY(${item.start}px)` }}
                >
                  <ContactRow contact={contact} selected={contact.id === selectedId} />
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </section>
  );
}
