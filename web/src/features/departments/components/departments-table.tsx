import { AdminList } from '#web/components/ui/admin-list.tsx';
import { ArchivedBadge } from '#web/components/ui/archived-badge.tsx';
import { ArchiveRowAction, tdClass } from '#web/components/ui/list-page.tsx';
import { useSession } from '#web/lib/auth.ts';
import { showToast } from '#web/lib/notify.ts';
import { useListFilters } from '#web/lib/use-list-filters.ts';
import { departmentsQuery, useArchiveDepartment, useDepartments, useTeamUsers } from '#web/features/departments/api/departments.ts';
import { MembersSeeAllSetting } from './members-see-all.tsx';

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
  const names = new Map((users.data?.data ?? []).map((u) => [u.id, u.name]));

  return (
    <AdminList
      path="/departments"
      title="Departamentos"
      description="As equipes que recebem as conversas, como Vendas ou Financeiro."
      createLabel="Novo departamento"
      isAdmin={!!me?.isAdmin}
      settings={<MembersSeeAllSetting />}
      list={list}
      filter={{ id: 'departments-filter-name', label: 'Nome', value: list.draft.name, onChange: (name) => list.setDraft({ name }) }}
      query={departments}
      minWidth="min-w-[560px]"
      headings={['#', 'Departamento', 'Usuários']}
      memberScrollLabel="Lista de departamentos"
      pagerId="departments-pager"
      rowTestId="department-row"
      rowLabel={(department) => department.name}
      cells={(department) => (
        <>
          <td className={tdClass}>
            <span className="flex items-center gap-2">
              <span className="font-medium">{department.name}</span>
              {department.archivedAt ? <ArchivedBadge why="Departamento arquivado: não recebe transferências nem conversas novas" /> : null}
            </span>
          </td>
          <td className={`${tdClass} text-fg-muted`}>{membersText(department.userIds, names)}</td>
        </>
      )}
      rowAction={(department) => (
        <ArchiveRowAction
          name={department.name}
          archived={!!department.archivedAt}
          busy={archive.isPending}
          onToggle={() =>
            archive.mutate(
              { id: department.id, archive: !department.archivedAt },
              { onSuccess: () => showToast({ tone: 'success', title: department.archivedAt ? 'Departamento desarquivado' : 'Departamento arquivado' }) },
            )
          }
        />
      )}
    />
  );
}
