import type { User } from '#contracts/entities.ts';
import type { UserCreatePayload, UserUpdatePayload } from '#contracts/users.ts';
import { api } from '#web/lib/api-client.ts';
import { useSaveEntity } from '#web/lib/use-save-entity.ts';
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
  return useSaveEntity(userKeys.all, id, { create: createUser, update: updateUser });
}
