import { Link } from 'react-router';
import { Crown, Eye, Pencil, Plus, ShieldCheck } from 'lucide-react';
import { defaultPerPage } from '#contracts/list-query.ts';
import type { User } from '#contracts/entities.ts';
import { archivedUserByLimitText } from '#contracts/users.ts';
import { ButtonLink } from '#web/components/ui/button.tsx';
import { InputField } from '#web/components/ui/field.tsx';
import { actionsCellClass, ArchiveRowAction, FiltersCard, ListPageHeader, ListTable, rowActionClass, tdClass } from '#web/components/ui/list-page.tsx';
import { Pagination } from '#web/components/ui/pagination.tsx';
import { ArchivedBadge } from '#web/components/ui/archived-badge.tsx';
import { Badge } from '#web/components/ui/misc.tsx';
import { Tooltip } from '#web/components/ui/tooltip.tsx';
import { useSession } from '#web/lib/auth.ts';
import { showToast } from '#web/lib/notify.ts';
import { useArchiveUser } from '#web/features/users/api/archive-user.ts';
import { usersQuery, useUsers, type UserFilters } from '#web/features/users/api/get-users.ts';
import { canArchiveUser, canEditUser } from './permissions.ts';
import { useListFilters } from '#web/lib/use-list-filters.ts';
import { useRefreshFlag } from '#web/lib/use-refresh-flag.ts';

/** Why a user is archived, as its badge's tooltip says. */
const archivedWhy = (user: User) => (user.archivedReason === 'limit' ? archivedUserByLimitText : 'Usuário arquivado por um administrador');

function RoleIcon({ user }: { user: User }) {
  if (user.isOwner)
    return (
      <span title="Dono do sistema" className="text-warning">
        <Crown className="size-4" aria-hidden="true" />
        <span className="sr-only">Dono do sistema</span>
      </span>
    );
  if (user.isAdmin)
    return (
      <span title="Administrador do sistema" className="text-brand">
        <ShieldCheck className="size-4" aria-hidden="true" />
        <span className="sr-only">Administrador do sistema</span>
      </span>
    );
  return null;
}

/** Beside the e-mail of a user whose new address waits for its code: which one, in a tooltip that keyboards reach too. */
function PendingEmailBadge({ pendingEmail }: { pendingEmail: string }) {
  return (
    <Tooltip content={`Aguardando confirmação de ${pendingEmail}`}>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: focusable so keyboard users can open the tooltip that names the pending address */}
      <span tabIndex={0} className="rounded-full focus-visible:outline-2 focus-visible:outline-ring">
        <Badge tone="neutral">E-mail pendente</Badge>
      </span>
    </Tooltip>
  );
}

const empty: UserFilters = { name: '', email: '' };

/** The users list of docs/product.md#screens. */
export function UsersTable() {
  const { user: me } = useSession();
  const list = useListFilters(empty);
  const users = useUsers(usersQuery(list.applied, list.page));
  const archive = useArchiveUser();
  const rows = users.data?.data ?? [];

  useRefreshFlag('/users', users.refetch);

  return (
    <div className="mx-auto max-w-6xl space-y-6 px-4 py-8 sm:px-8">
      <ListPageHeader
        title="Usuários"
        description="As pessoas da sua equipe que atendem pelo Conversa."
        filtersOpen={list.open}
        onToggleFilters={list.toggle}
        onRefresh={() => void users.refetch()}
        refreshing={users.isFetching}
        actions={
          me?.isAdmin ? (
            <ButtonLink to="/users/create">
              <Plus className="size-4" aria-hidden="true" /> Novo usuário
            </ButtonLink>
          ) : null
        }
      />
      {list.open ? (
        <FiltersCard columns="sm:grid-cols-[1fr_1fr_auto]" onApply={list.apply}>
          <InputField id="users-filter-name" label="Nome" value={list.draft.name} onChange={(e) => list.setDraft({ ...list.draft, name: e.target.value })} />
          <InputField
            id="users-filter-email"
            label="Email"
            value={list.draft.email}
            onChange={(e) => list.setDraft({ ...list.draft, email: e.target.value })}
          />
        </FiltersCard>
      ) : null}
      <ListTable
        minWidth="min-w-[640px]"
        loading={users.isPending}
        headings={['#', 'Nome do usuário', 'Email do usuário']}
        pager={<Pagination page={list.page} perPage={defaultPerPage} total={users.data?.totalCount ?? 0} onPageChange={list.setPage} idPrefix="users-pager" />}
      >
        {rows.map((user, i) => (
          <tr key={user.id} className="hover:bg-bg-subtle" data-testid="user-row">
            <td className={`${tdClass} text-fg-muted tabular-nums`}>{list.page * defaultPerPage + i + 1}</td>
            <td className={tdClass}>
              <span className="flex items-center gap-2">
                <span className="font-medium">{user.name}</span>
                <RoleIcon user={user} />
                {user.archivedAt ? <ArchivedBadge why={archivedWhy(user)} /> : null}
              </span>
            </td>
            <td className={`${tdClass} text-fg-muted`}>
              <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
                <span>{user.email}</span>
                {user.pendingEmail ? <PendingEmailBadge pendingEmail={user.pendingEmail} /> : null}
              </span>
            </td>
            <td className={`${tdClass} ${actionsCellClass} py-2`}>
              <div className="flex justify-end gap-0.5">
                <Link to={`/users/${user.id}/show`} className={rowActionClass} aria-label={`Visualizar ${user.name}`} title="Visualizar">
                  <Eye className="size-4" aria-hidden="true" />
                </Link>
                {canEditUser(me, user) ? (
                  <Link to={`/users/${user.id}/edit`} className={rowActionClass} aria-label={`Editar ${user.name}`} title="Editar">
                    <Pencil className="size-4" aria-hidden="true" />
                  </Link>
                ) : null}
                {canArchiveUser(me, user) ? (
                  <ArchiveRowAction
                    name={user.name}
                    archived={!!user.archivedAt}
                    busy={archive.isPending}
                    onToggle={() =>
                      archive.mutate(
                        { id: user.id, archive: !user.archivedAt },
                        { onSuccess: () => showToast({ tone: 'success', title: user.archivedAt ? 'Usuário desarquivado' : 'Usuário arquivado' }) },
                      )
                    }
                  />
                ) : null}
              </div>
            </td>
          </tr>
        ))}
      </ListTable>
    </div>
  );
}
