/**
 * The account's whole tag palette, read by more than one feature (the tags screen, the contacts'
 * chips, filter and picker), so it lives outside them like the query keys.
 */
import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Contact } from '#contracts/contacts.ts';
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

const noTags: readonly Tag[] = [];

/**
 * A contact's tags from the palette, for memoised rows: one array per version of the contact and of
 * the palette, and the same empty array for a contact with none, so the palette arriving (or a
 * list re-rendering) re-renders only the rows whose chips change. A deleted tag's id may linger on
 * a contact: only the palette's tags count (docs/api.md).
 */
export function useContactTags(palette: readonly Tag[] | undefined): (contact: Contact) => readonly Tag[] {
  return useMemo(() => {
    const byId = new Map((palette ?? []).map((t) => [t.id, t]));
    const resolved = new WeakMap<Contact, readonly Tag[]>();
    return (contact: Contact) => {
      if (!contact.tags?.length || byId.size === 0) return noTags;
      let tags = resolved.get(contact);
      if (!tags) {
        const found = contact.tags.flatMap((id) => byId.get(id) ?? []);
        tags = found.length ? found : noTags;
        resolved.set(contact, tags);
      }
      return tags;
    };
  }, [palette]);
}
