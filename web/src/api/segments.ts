import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Contact } from '#contracts/contacts.ts';
import type { ListAnswer } from '#contracts/entities.ts';
import { listQueryString, maxPerPage, type Where } from '#contracts/list-query.ts';
import type { Segment } from '#contracts/segments.ts';
import { api } from '#web/lib/api-client.ts';
import { segmentKeys } from '#web/api/keys.ts';

/** GET /segments: every segment of the account by name, each with its live count. */
export function useSegments() {
  return useQuery({
    queryKey: segmentKeys.list(),
    queryFn: ({ signal }) => api.get<ListAnswer<Segment>>(`/segments${listQueryString({ perPage: maxPerPage })}`, { signal }),
  });
}

/**
 * How many contacts a `where` matches now, from the contacts list's count (the directory): what a
 * segment being edited shows. `enabled` false while the typing settles (the caller debounces).
 */
export function useContactCount(where: Where, enabled = true) {
  return useQuery({
    queryKey: segmentKeys.count(where),
    queryFn: async ({ signal }) =>
      (await api.get<ListAnswer<Contact>>(`/contacts${listQueryString({ where, perPage: 1, withCount: true })}`, { signal })).totalCount,
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** POST /segments or PUT /segments/{id}: admins save a segment's name and filter. */
export function useSaveSegment(id?: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { name: string; where: Where }) =>
      id ? api.put<Segment>(`/segments/${encodeURIComponent(id)}`, body) : api.post<Segment>('/segments', body),
    onSuccess: () => client.invalidateQueries({ queryKey: segmentKeys.all }),
  });
}

export function useDeleteSegment() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(`/segments/${encodeURIComponent(id)}`),
    onSuccess: () => client.invalidateQueries({ queryKey: segmentKeys.all }),
  });
}
