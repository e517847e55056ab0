import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ListAnswer } from '#contracts/entities.ts';
import { containsPattern, defaultPerPage, listQueryString, maxPerPage, type ListQueryInput, type Where } from '#contracts/list-query.ts';
import type { QuickReply, QuickReplyPayload } from '#contracts/quick-replies.ts';
import { api } from '#web/lib/api-client.ts';
import { useSaveEntity } from '#web/lib/use-save-entity.ts';
import { quickReplyKeys } from '#web/api/keys.ts';

export function quickRepliesQuery(shortcut: string, page: number, perPage = defaultPerPage): ListQueryInput {
  const where: Where = {};
  if (shortcut.trim()) where.shortcut = { like: containsPattern(shortcut.trim().replace(/^\//, '').toLowerCase()) };
  return { where, page, perPage, withCount: true };
}

/** GET /quick-replies?query=... */
export function useQuickReplies(query: ListQueryInput) {
  return useQuery({
    queryKey: quickReplyKeys.list(query),
    queryFn: ({ signal }) => api.get<ListAnswer<QuickReply>>(`/quick-replies${listQueryString(query)}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** One quick reply for the edit modal (the API has no GET /quick-replies/{id}: it comes from the whole list). */
export function useQuickReply(id: string | undefined) {
  const query: ListQueryInput = { where: {}, page: 0, perPage: maxPerPage, withCount: false };
  const all = useQuery({
    queryKey: quickReplyKeys.list(query),
    queryFn: ({ signal }) => api.get<ListAnswer<QuickReply>>(`/quick-replies${listQueryString(query)}`, { signal }),
    enabled: !!id,
  });
  return { loaded: !!all.data, reply: all.data?.data.find((r) => r.id === id) };
}

/** POST /quick-replies, PUT /quick-replies/{id} (admins). */
export function useSaveQuickReply(id: string | undefined) {
  return useSaveEntity(quickReplyKeys.all, id, {
    create: (payload: QuickReplyPayload) => api.post<QuickReply>('/quick-replies', payload),
    update: (target: string, payload: QuickReplyPayload) => api.put<QuickReply>(`/quick-replies/${encodeURIComponent(target)}`, payload),
  });
}

/** DELETE /quick-replies/{id} (admins). */
export function useDeleteQuickReply() {
  const client = useQueryClient();
  return useMutation({
    mutationKey: [...quickReplyKeys.all, 'delete'],
    mutationFn: (id: string) => api.delete<void>(`/quick-replies/${encodeURIComponent(id)}`),
    onSuccess: () => client.invalidateQueries({ queryKey: quickReplyKeys.all }),
  });
}
