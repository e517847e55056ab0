import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { ScheduledMessage } from '#contracts/scheduled-messages.ts';
import { api } from '#web/lib/api-client.ts';
import { scheduledMessageKeys } from '#web/api/keys.ts';

/** GET /contacts/{id}/scheduled-messages: what is still to send, the soonest first. */
export function useScheduledMessages(contactId: string) {
  return useQuery({
    queryKey: scheduledMessageKeys.ofContact(contactId),
    queryFn: ({ signal }) => api.get<ScheduledMessage[]>(`/contacts/${encodeURIComponent(contactId)}/scheduled-messages`, { signal }),
  });
}

/**
 * A schedule as answered or as a realtime event carried it: it replaces its copy, joins the list
 * while it waits, and leaves it once sent or cancelled. An older copy than the cached one is ignored.
 */
export function applyScheduledMessage(client: QueryClient, item: ScheduledMessage): void {
  client.setQueryData<ScheduledMessage[]>(scheduledMessageKeys.ofContact(item.contactId), (cached) => {
    if (!cached) return cached;
    const current = cached.find((s) => s.id === item.id);
    if (current && current.updatedAt > item.updatedAt) return cached;
    const others = cached.filter((s) => s.id !== item.id);
    const list = item.status === 'scheduled' ? [...others, item] : others;
    return list.sort((a, b) => (a.nextAt ?? '').localeCompare(b.nextAt ?? '') || a.id.localeCompare(b.id));
  });
}
