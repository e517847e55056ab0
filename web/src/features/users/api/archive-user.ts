import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { User } from '#contracts/entities.ts';
import { api } from '#web/lib/api-client.ts';
import { userKeys } from '#web/api/keys.ts';

/** POST /users/{id}/archive (admins; never the owner, never oneself). */
export function archiveUser(id: string, archive: boolean): Promise<User> {
  return api.post<User>(`/users/${encodeURIComponent(id)}/archive`, { id, archive });
}

export function useArchiveUser() {
  const client = useQueryClient();
  return useMutation({
    mutationKey: [...userKeys.all, 'archive'],
    mutationFn: ({ id, archive }: { id: string; archive: boolean }) => archiveUser(id, archive),
    onSuccess: () => client.invalidateQueries({ queryKey: userKeys.all }),
  });
}
