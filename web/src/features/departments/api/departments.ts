import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Department, DepartmentPayload } from '#contracts/departments.ts';
import type { ListAnswer, User } from '#contracts/entities.ts';
import { containsPattern, defaultPerPage, maxPerPage, listQueryString, type ListQueryInput, type Where } from '#contracts/list-query.ts';
import { api } from '#web/lib/api-client.ts';
import { useSaveEntity } from '#web/lib/use-save-entity.ts';
import { departmentKeys, userKeys } from '#web/api/keys.ts';

export function departmentsQuery(name: string, page: number, perPage = defaultPerPage): ListQueryInput {
  const where: Where = {};
  if (name.trim()) where.name = { like: containsPattern(name.trim()) };
  return { where, page, perPage, withCount: true };
}

/** GET /departments?query=...: one page of the departments list. */
export function useDepartments(query: ListQueryInput) {
  return useQuery(
    queryOptions({
      queryKey: departmentKeys.list(query),
      queryFn: ({ signal }) => api.get<ListAnswer<Department>>(`/departments${listQueryString(query)}`, { signal }),
      placeholderData: keepPreviousData,
    }),
  );
}

/** GET /departments/{id}. */
export function useDepartment(id: string | undefined) {
  return useQuery({
    queryKey: departmentKeys.detail(id ?? ''),
    queryFn: ({ signal }) => api.get<Department>(`/departments/${encodeURIComponent(id ?? '')}`, { signal }),
    enabled: !!id,
  });
}

/** POST /departments, PUT /departments/{id} (admins). */
export function useSaveDepartment(id: string | undefined) {
  return useSaveEntity(departmentKeys.all, id, {
    create: (payload: DepartmentPayload) => api.post<Department>('/departments', payload),
    update: (target: string, payload: DepartmentPayload) => api.put<Department>(`/departments/${encodeURIComponent(target)}`, payload),
  });
}

/** POST /departments/{id}/archive (admins). */
export function useArchiveDepartment() {
  const client = useQueryClient();
  return useMutation({
    mutationKey: [...departmentKeys.all, 'archive'],
    mutationFn: ({ id, archive }: { id: string; archive: boolean }) => api.post<Department>(`/departments/${encodeURIComponent(id)}/archive`, { archive }),
    onSuccess: () => client.invalidateQueries({ queryKey: departmentKeys.all }),
  });
}

/** The account's users for the department's members picker (GET /users, one page of up to 500). */
export function useTeamUsers() {
  const query: ListQueryInput = { where: {}, page: 0, perPage: maxPerPage, withCount: false };
  return useQuery({ queryKey: userKeys.list(query), queryFn: ({ signal }) => api.get<ListAnswer<User>>(`/users${listQueryString(query)}`, { signal }) });
}
