import { useQuery } from '@tanstack/react-query';
import type { Department } from '#contracts/departments.ts';
import type { ListAnswer, User } from '#contracts/entities.ts';
import { listQueryString, maxPerPage, type ListQueryInput } from '#contracts/list-query.ts';
import { api } from '#web/lib/api-client.ts';
import { departmentKeys, userKeys } from '#web/api/keys.ts';

const everything: ListQueryInput = { where: {}, page: 0, perPage: maxPerPage, withCount: false };

/** Whom a conversation may be transferred to: the active users and departments (archived ones take no transfers). */
export function useTransferTargets() {
  const users = useQuery({
    queryKey: userKeys.list(everything),
    queryFn: ({ signal }) => api.get<ListAnswer<User>>(`/users${listQueryString(everything)}`, { signal }),
    select: (answer) => answer.data.filter((u) => !u.archivedAt),
  });
  const departments = useQuery({
    queryKey: departmentKeys.list(everything),
    queryFn: ({ signal }) => api.get<ListAnswer<Department>>(`/departments${listQueryString(everything)}`, { signal }),
    select: (answer) => answer.data.filter((d) => !d.archivedAt),
  });
  return { users: users.data ?? [], departments: departments.data ?? [], loading: users.isPending || departments.isPending };
}
