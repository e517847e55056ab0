import { Link } from 'react-router';
import { Archive, ArchiveRestore, Pencil, Plus } from 'lucide-react';
import { defaultPerPage } from '#contracts/list-query.ts';
import { ArchivedBadge } from '#web/components/ui/archived-badge.tsx';
import { ButtonLink } from '#web/components/ui/button.tsx';
import { InputField } from '#web/components/ui/field.tsx';
import { actionsCellClass, FiltersCard, ListPageHeader, ListTable, tdClass } from '#web/components/ui/list-page.tsx';
import { Pagination } from '#web/components/ui/pagination.tsx';
import { useSession } from '#web/lib/auth.ts';
import { showToast } from '#web/lib/notify.ts';
import { useListFilters } from '#web/lib/use-list-filters.ts';
import { useRefreshFlag } from '#web/lib/use-refresh-flag.ts';
import { departmentsQuery, useArchiveDepartment, useDepartments, useTeamUsers } from '#web/features/departments/api/departments.ts';
import { MembersSeeAllSetting } from './members-see-all.tsx';

const iconLink =
  'inline-flex size-8 items-center justify-center rounded-lg text-fg-muted hover:bg-surface-2 hover:text-fg focus-visible:outline-2 focus-visible:outline-ring disabled:opacity-40';

/** 'Ana, Bruno e mais 3', from the department's user ids. */
function membersText(userIds: string[], names: Map<string, string>): string {
  if (userIds.length === 0) return 'Nenhum usuário';
  const known = userIds.map((id) => names.get(id)).filter((n): n is string => !!n);
  if (known.length === 0) return userIds.length === 1 ? '1 usuário' : `${userIds.length} usuários`;
  const shown = known.slice(0, 2).join(', ');
  const rest = userIds.length - Math.min(2, known.length);
  return rest > 0 ? `${shown} e mais ${rest}` : shown;
}

const empty = { name: '' };

/** 'Departamentos': the teams conversations are routed to; admins create, rename and archive them. */
export function DepartmentsTable() {
  const { user: me } = useSession();
  const list = useListFilters(empty);
  const departments = useDepartments(departmentsQuery(list.applied.name, list.page));
  const users = useTeamUsers();
  const archive = useArchiveDepartment();
  const rows = departments.data?.data ?? [];
  const names = new Map((users.data?.data ?? []).map((u) => [u.id, u.name]));

  useRefreshFlag('/departments', departments.refetch);

  return (
    <div className="mx-auto max-w-6xl space-y-6 px-4 py-8 sm:px-8">
      <ListPageHeader
        title="Departamentos"
        description="As equipes que recebem as conversas, como Vendas ou Financeiro."
        filtersOpen={list.open}
        onToggleFilters={list.toggle}
        onRefresh={() => void departments.refetch()}
        refreshing={departments.isFetching}
        actions={
          me?.isAdmin ? (
            <ButtonLink to="/departments/create">
              <Plus className="size-4" aria-hidden="true" /> Novo departamento
            </ButtonLink>
          ) : null
        }
      />
      {me?.isAdmin ? <MembersSeeAllSetting /> : null}
      {list.open ? (
        <FiltersCard columns="sm:grid-cols-[1fr_auto]" onApply={list.apply}>
          <InputField id="departments-filter-name" label="Nome" value={list.draft.name} onChange={(e) => list.setDraft({ name: e.target.value })} />
        </FiltersCard>
      ) : null}
      <ListTable
        minWidth="min-w-[560px]"
        // A member's rows have no actions: nothing to pin, and the scroll region itself takes the focus.
        pinActions={!!me?.isAdmin}
        scrollLabel={me?.isAdmin ? undefined : 'Lista de departamentos'}
        loading={departments.isPending}
        headings={['#', 'Departamento', 'Usuários']}
        pager={
          <Pagination
            page={list.page}
            perPage={defaultPerPage}
            total={departments.data?.totalCount ?? 0}
            onPageChange={list.setPage}
            idPrefix="departments-pager"
          />
        }
      >
        {rows.map((department, i) => (
          <tr key={department.id} className="hover:bg-bg-subtle" data-testid="department-row">
            <td className={`${tdClass} text-fg-muted tabular-nums`}>{list.page * defaultPerPage + i + 1}</td>
            <td className={tdClass}>
              <span className="flex items-center gap-2">
                <span className="font-medium">{department.name}</span>
                {department.archivedAt ? <ArchivedBadge why="Departamento arquivado: não recebe transferências nem conversas novas" /> : null}
              </span>
            </td>
            <td className={`${tdClass} text-fg-muted`}>{membersText(department.userIds, names)}</td>
            <td className={`${tdClass} ${actionsCellClass} py-2`}>
              {me?.isAdmin ? (
                <div className="flex justify-end gap-0.5">
                  <Link to={`/departments/${department.id}/edit`} className={iconLink} aria-label={`Editar ${department.name}`} title="Editar">
                    <Pencil className="size-4" aria-hidden="true" />
                  </Link>
                  <button
                    type="button"
                    className={iconLink}
                    disabled={archive.isPending}
                    onClick={() =>
                      archive.mutate(
                        { id: department.id, archive: !department.archivedAt },
                        {
                          onSuccess: () =>
                            showToast({ tone: 'success', title: department.archivedAt ? 'Departamento desarquivado' : 'Departamento arquivado' }),
                        },
                      )
                    }
                    aria-label={`${department.archivedAt ? 'Desarquivar' : 'Arquivar'} ${department.name}`}
                    title={department.archivedAt ? 'Desarquivar' : 'Arquivar'}
                  >
                    {department.archivedAt ? <ArchiveRestore className="size-4" aria-hidden="true" /> : <Archive className="size-4" aria-hidden="true" />}
                  </button>
                </div>
              ) : null}
            </td>
          </tr>
        ))}
      </ListTable>
    </div>
  );
}
