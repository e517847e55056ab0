/**
 * The account's whole tag palette, read by more than one feature (the tags screen, the contacts'
 * chips, filter and picker), so it lives outside them like the query keys.
 */
import { useQuery } from '@tanstack/react-query';
import type { ListAnswer } from '#contracts/entities.ts';
import { listQueryString, maxPerPage, type ListQueryInput } from '#contracts/list-query.ts';
import type { Tag } from '#contracts/tags.ts';
import { api } from '#web/lib/api-client.ts';
import { tagKeys } from './keys.ts';

const everyTag: ListQueryInput = { where: {}, page: 0, perPage: maxPerPage, withCount: false };

/** GET /tags, one page of up to 500 by name: every tag of the account. */
export function useAllTags() {
  return useQuery({ queryKey: tagKeys.list(everyTag), queryFn: ({ signal }) => api.get<ListAnswer<Tag>>(`/tags${listQueryString(everyTag)}`, { signal }) });
}
