import { lazy, memo, Suspense, useCallback, useState } from 'react';
import { Link } from 'react-router';
import { Bookmark, Download, FileSpreadsheet, ListFilter, Pencil, Plus, Tag as TagIcon, Upload } from 'lucide-react';
import { defaultPerPage } from '#contracts/list-query.ts';
import { archivedByLimitText, maxContactsSkipped } from '#contracts/contact-limits.ts';
import type { Contact } from '#contracts/contacts.ts';
import type { Tag } from '#contracts/tags.ts';
import { Button, ButtonLink } from '#web/components/ui/button.tsx';
import { TagChip } from '#web/components/ui/tag-chip.tsx';
import { useAllTags, useContactTags } from '#web/api/tags.ts';
import { actionsCellClass, FiltersCard, ListPageHeader, ListTable, tdClass } from '#web/components/ui/list-page.tsx';
import { Pagination, pageSizes } from '#web/components/ui/pagination.tsx';
import { ArchivedBadge } from '#web/components/ui/archived-badge.tsx';
import { initials } from '#web/lib/format.ts';
import { contactsQuery, emptyContactFilters, useContacts } from '#web/features/contacts/api/get-contacts.ts';
import { ContactTagsDialog } from '#web/components/contact-tags-dialog.tsx';
import { ServiceTypeIcon } from './service-type-icon.tsx';
import { useListFilters } from '#web/lib/use-list-filters.ts';
import { useRefreshFlag } from '#web/lib/use-refresh-flag.ts';
import { useSession } from '#web/lib/auth.ts';
import { showToast } from '#web/lib/notify.ts';
import { useExportContact } from '#web/features/contacts/api/export-contact.ts';
import { useExportContactList } from '#web/features/contacts/api/export-contact-list.ts';
import { contactWhere, hasFilters } from '#web/features/contacts/contact-filters.ts';
import { ContactFilterFields } from './contact-filter-fields.tsx';

const actionClass =
  'inline-flex size-8 items-center justify-center rounded-lg text-fg-muted hover:bg-surface-2 hover:text-fg focus-visible:outline-2 focus-visible:outline-ring disabled:opacity-50';

/** Why a contact is archived, as its badge's tooltip says. */
const archivedWhy = (contact: Contact) => (contact.archivedReason === 'manual' ? 'Contato arquivado por um administrador' : archivedByLimitText);

const noTags: Tag[] = [];

// The segment's form checks its name with zod: fetched when opened, so zod stays off the list's first load (ADR-0168).
const SaveSegmentDialog = lazy(() => import('./save-segment-dialog.tsx').then((m) => ({ default: m.SaveSegmentDialog })));

interface ContactTableRowProps {
  contact: Contact;
  /** The row's number across pages ('#'). */
  number: number;
  /** The contact's tags from the palette (api/tags.ts, useContactTags). */
  tags: readonly Tag[];
  canExport: boolean;
  exportBusy: boolean;
  onTag: (contact: Contact) => void;
  onExport: (contact: Contact) => void;
}

/**
 * One contact of the table. Memoised on its props: a refetch that answers the same contacts, the
 * tag palette arriving, a dialog opening or one row's export re-render no other row.
 */
const ContactTableRow = memo(function ContactTableRow({ contact, number, tags, canExport, exportBusy, onTag, onExport }: ContactTableRowProps) {
  return (
    <tr className="hover:bg-bg-subtle" data-testid="contact-row">
      <td className={`${tdClass} text-fg-muted tabular-nums`}>{number}</td>
      <td className={tdClass}>
        <span className="flex items-center gap-3">
          {contact.avatar?.url || contact.avatarUrl ? (
            <img src={contact.avatar?.url ?? contact.avatarUrl ?? ''} alt="" className="size-8 rounded-full object-cover" />
          ) : (
            <span
              className="flex size-8 shrink-0 items-center justify-center rounded-full bg-brand-soft text-xs font-semibold text-brand-soft-fg"
              aria-hidden="true"
            >
              {initials(contact.name)}
            </span>
          )}
          <span className="font-medium whitespace-nowrap">{contact.name}</span>
          {contact.archivedAt ? <ArchivedBadge why={archivedWhy(contact)} /> : null}
        </span>
      </td>
      <td className={`${tdClass} text-fg-muted`}>
        {/* A long address is cut with an ellipsis (shown whole on hover) so the row's actions stay in view on a laptop. */}
        {contact.data.email ? (
          <span className="block max-w-48 truncate" title={contact.data.email}>
            {contact.data.email}
          </span>
        ) : (
          '—'
        )}
      </td>
      <td className={`${tdClass} text-fg-muted tabular-nums`}>{contact.data.phoneNumber ? `+${contact.data.phoneNumber}` : '—'}</td>
      <td className={tdClass}>
        {contact.service ? (
          <span className="flex items-center gap-2">
            <ServiceTypeIcon type={contact.service.type} />
            {contact.service.name}
          </span>
        ) : (
          '—'
        )}
      </td>
      <td className={tdClass}>
        <span className="flex max-w-56 flex-wrap gap-1">
          {tags.map((tag) => (
            <TagChip key={tag.id} name={tag.name} color={tag.color} />
          ))}
        </span>
      </td>
      <td className={`${tdClass} ${actionsCellClass} text-right whitespace-nowrap`}>
        <Link to={`/contacts/${contact.id}/edit`} className={actionClass} aria-label={`Editar ${contact.name}`} title="Editar">
          <Pencil className="size-4" aria-hidden="true" />
        </Link>
        <button type="button" className={actionClass} aria-label={`Etiquetas de ${contact.name}`} title="Etiquetas" onClick={() => onTag(contact)}>
          <TagIcon className="size-4" aria-hidden="true" />
        </button>
        {canExport ? (
          <button
            type="button"
            className={actionClass}
            aria-label={`Exportar dados de ${contact.name}`}
            title="Exportar dados"
            disabled={exportBusy}
            onClick={() => onExport(contact)}
          >
            <Download className="size-4" aria-hidden="true" />
          </button>
        ) : null}
      </td>
    </tr>
  );
});

/** The contacts list of docs/product.md#screens: filters, the table, the pager with page sizes. */
export function ContactsTable() {
  const list = useListFilters(emptyContactFilters);
  const [perPage, setPerPage] = useState(defaultPerPage);
  const contacts = useContacts(contactsQuery(list.applied, list.page, perPage));
  const rows = contacts.data?.data ?? [];
  const total = contacts.data?.totalCount ?? 0;
  const { user } = useSession();
  const palette = useAllTags().data?.data;
  const tags = palette ?? noTags;
  const tagsOf = useContactTags(palette);
  const [tagging, setTagging] = useState<Contact | null>(null);
  const exporting = useExportContact();
  const { mutate: exportContact } = exporting;
  // Stable, so the memoised rows keep their props.
  const exportData = useCallback(
    (contact: Contact) =>
      exportContact(contact, {
        onSuccess: () => showToast({ tone: 'success', title: 'Dados do contato exportados' }),
        onError: () => showToast({ tone: 'error', title: 'Não foi possível exportar os dados do contato' }),
      }),
    [exportContact],
  );

  const [savingSegment, setSavingSegment] = useState(false);
  const exportingList = useExportContactList();
  const filtered = hasFilters(list.applied);

  // A save comes back with { refresh: true }: refetch, then drop the flag.
  useRefreshFlag('/contacts', contacts.refetch);

  return (
    <div className="mx-auto max-w-6xl space-y-6 px-4 py-8 sm:px-8">
      <ListPageHeader
        title="Contatos"
        description="Os clientes que falam com a sua empresa."
        filtersOpen={list.open}
        onToggleFilters={list.toggle}
        onRefresh={() => void contacts.refetch()}
        refreshing={contacts.isFetching}
        actions={
          <>
            <ButtonLink to="/contacts/segments" variant="outline">
              <ListFilter className="size-4" aria-hidden="true" /> Segmentos
            </ButtonLink>
            {user?.isAdmin ? (
              <Button
                variant="outline"
                loading={exportingList.isPending}
                onClick={() =>
                  exportingList.mutate(contactWhere(list.applied), {
                    onSuccess: (done) => showToast({ tone: 'success', title: `${done.rows} ${done.rows === 1 ? 'contato exportado' : 'contatos exportados'}` }),
                    onError: () => showToast({ tone: 'error', title: 'Não foi possível exportar os contatos' }),
                  })
                }
              >
                <FileSpreadsheet className="size-4" aria-hidden="true" /> Exportar CSV
              </Button>
            ) : null}
            {user?.isAdmin ? (
              <ButtonLink to="/contacts/import" variant="outline">
                <Upload className="size-4" aria-hidden="true" /> Importar contatos
              </ButtonLink>
            ) : null}
            <ButtonLink to="/contacts/create">
              <Plus className="size-4" aria-hidden="true" /> Novo contato
            </ButtonLink>
          </>
        }
      />
      {list.open ? (
        <FiltersCard columns="sm:grid-cols-3 lg:grid-cols-5" onApply={list.apply}>
          <ContactFilterFields idPrefix="contacts-filter" value={list.draft} onChange={list.setDraft} tags={tags} />
        </FiltersCard>
      ) : null}
      {filtered && user?.isAdmin ? (
        <div className="flex justify-end">
          <Button variant="outline" size="sm" onClick={() => setSavingSegment(true)}>
            <Bookmark className="size-4" aria-hidden="true" /> Salvar como segmento
          </Button>
        </div>
      ) : null}
      <ListTable
        minWidth="min-w-[880px]"
        loading={contacts.isPending}
        headings={['#', 'Nome', 'Email', 'Número', 'Conexão', 'Etiquetas']}
        pager={
          <Pagination
            page={list.page}
            perPage={perPage}
            // Page numbers reach the first maxContactsSkipped contacts (the server refuses deeper ones): the pager ends there.
            total={Math.min(total, (Math.floor(maxContactsSkipped / perPage) + 1) * perPage)}
            onPageChange={list.setPage}
            pageSizeOptions={pageSizes}
            onPerPageChange={(n) => {
              setPerPage(n);
              list.setPage(0);
            }}
            idPrefix="contacts-pager"
          />
        }
      >
        {rows.map((contact, i) => (
          <ContactTableRow
            key={contact.id}
            contact={contact}
            number={list.page * perPage + i + 1}
            tags={tagsOf(contact)}
            canExport={!!user?.isAdmin}
            exportBusy={exporting.isPending && exporting.variables?.id === contact.id}
            onTag={setTagging}
            onExport={exportData}
          />
        ))}
      </ListTable>
      {savingSegment ? (
        <Suspense fallback={null}>
          <SaveSegmentDialog where={contactWhere(list.applied)} count={total} onClose={() => setSavingSegment(false)} />
        </Suspense>
      ) : null}
      {tagging ? <ContactTagsDialog contact={tagging} tags={tags} onClose={() => setTagging(null)} /> : null}
    </div>
  );
}
