import { useMutation, useQueryClient, type QueryKey, type UseMutationOptions } from '@tanstack/react-query';

/**
 * The save of a create/edit modal: `create` without an id, `update` with one, then every cached
 * query of the entity (`entity`, its key factory's `all`) is refetched before the save settles.
 */
export function useSaveEntity<Create, Update, Answer>(
  entity: QueryKey,
  id: string | undefined,
  save: { create: (payload: Create) => Promise<Answer>; update: (id: string, payload: Update) => Promise<Answer> },
  options: Pick<UseMutationOptions<Answer, Error, Create | Update>, 'onError' | 'meta'> = {},
) {
  const client = useQueryClient();
  return useMutation({
    mutationKey: [...entity, 'save', id ?? 'new'],
    mutationFn: (payload: Create | Update) => (id ? save.update(id, payload as Update) : save.create(payload as Create)),
    onSuccess: () => client.invalidateQueries({ queryKey: entity }),
    ...options,
  });
}
