import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { User } from '#contracts/entities.ts';
import type { UserCreatePayload, UserUpdatePayload } from '#contracts/users.ts';
import { api } from '#web/lib/api-client.ts';
import { userKeys } from '#web/api/keys.ts';

/** POST /users (admins; 402 past the plan's users). */
export function createUser(payload: UserCreatePayload): Promise<User> {
  return api.post<User>('/users', payload);
}

/** PUT /users/{id}: a blank password keeps the current one. */
export function updateUser(id: string, payload: UserUpdatePayload): Promise<User> {
  return api.put<User>(`/users/${encodeURIComponent(id)}`, payload);
}

export function useSaveUser(id: string | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationKey: [...userKeys.all, 'save', id ?? 'new'],
    mutationFn: (payload: UserCreatePayload | UserUpdatePayload) => (id ? updateUser(id, payload) : createUser(payload as UserCreatePayload)),
    onSuccess: () => client.invalidateQueries({ queryKey: userKeys.all }),
  });
}
