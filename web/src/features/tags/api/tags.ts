import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ListAnswer } from '#contracts/entities.ts';
import { containsPattern, defaultPerPage, listQueryString, type ListQueryInput, type Where } from '#contracts/list-query.ts';
import type { Tag, TagPayload } from '#contracts/tags.ts';
import { api } from '#web/lib/api-client.ts';
import { useSaveEntity } from '#web/lib/use-save-entity.ts';
import { tagKeys } from '#web/api/keys.ts';

export function tagsQuery(name: string, page: number, perPage = defaultPerPage): ListQueryInput {
  const where: Where = {};
  if (name.trim()) where.name = { like: containsPattern(name.trim()) };
  return { where, page, perPage, withCount: true };
}

/** GET /tags?query=... */
export function useTags(query: ListQueryInput) {
  return useQuery({
    queryKey: tagKeys.list(query),
    queryFn: ({ signal }) => api.get<ListAnswer<Tag>>(`/tags${listQueryString(query)}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** POST /tags, PUT /tags/{id} (admins). */
export function useSaveTag(id: string | undefined) {
  return useSaveEntity(tagKeys.all, id, {
    create: (payload: TagPayload) => api.post<Tag>('/tags', payload),
    update: (target: string, payload: TagPayload) => api.put<Tag>(`/tags/${encodeURIComponent(target)}`, payload),
  });
}

/** DELETE /tags/{id} (admins). */
export function useDeleteTag() {
  const client = useQueryClient();
  return useMutation({
    mutationKey: [...tagKeys.all, 'delete'],
    mutationFn: (id: string) => api.delete<void>(`/tags/${encodeURIComponent(id)}`),
    onSuccess: () => client.invalidateQueries({ queryKey: tagKeys.all }),
  });
}
