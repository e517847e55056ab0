import { useQuery } from '@tanstack/react-query';
import type { Department } from '#contracts/departments.ts';
import type { ListAnswer } from '#contracts/entities.ts';
import { listQueryString, maxPerPage, type ListQueryInput } from '#contracts/list-query.ts';
import { api } from '#web/lib/api-client.ts';
import { departmentKeys } from './keys.ts';

const everyDepartment: ListQueryInput = { where: {}, page: 0, perPage: maxPerPage, withCount: false };

/** GET /departments, one page of up to 500 by name: every department of the account (the inbox's filter, the business hours' departments). */
export function useAllDepartments() {
  return useQuery({
    queryKey: departmentKeys.list(everyDepartment),
    queryFn: ({ signal }) => api.get<ListAnswer<Department>>(`/departments${listQueryString(everyDepartment)}`, { signal }),
  });
}
