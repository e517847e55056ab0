import { useQuery } from '@tanstack/react-query';
import type { ListAnswer, User } from '#contracts/entities.ts';
import { listQueryString, maxPerPage, type ListQueryInput } from '#contracts/list-query.ts';
import { api } from '#web/lib/api-client.ts';
import { userKeys } from './keys.ts';

const everyUser: ListQueryInput = { where: {}, page: 0, perPage: maxPerPage, withCount: false };

/** GET /users, one page of up to 500: every user of the account (the menu's 'Enviar para uma pessoa'). */
export function useAllUsers() {
  return useQuery({
    queryKey: userKeys.list(everyUser),
    queryFn: ({ signal }) => api.get<ListAnswer<User>>(`/users${listQueryString(everyUser)}`, { signal }),
  });
}
