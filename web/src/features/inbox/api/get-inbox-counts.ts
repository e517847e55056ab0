import { keepPreviousData, useQuery, type QueryClient } from '@tanstack/react-query';
import type { InboxCounts } from '#contracts/conversations.ts';
import { listQueryString, type Where } from '#contracts/list-query.ts';
import { api } from '#web/lib/api-client.ts';
import { inboxCountKeys } from '#web/api/keys.ts';

/**
 * GET /inbox/counts?query=...: for each tab, its conversations in total and per status, under the
 * filters the tabs share (the server ignores a `status` or `userId` in the `where`). Switching tab
 * or status keeps the same answer; the previous one stays shown while another filter's loads.
 */
export function useInboxCounts(where: Where) {
  return useQuery({
    queryKey: inboxCountKeys.counts(where),
    queryFn: ({ signal }) => api.get<InboxCounts>(`/inbox/counts${listQueryString({ where })}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** How long realtime events are gathered before the counts are read again. */
export const countsRefreshDelayMs = 250;
const pending = new WeakMap<QueryClient, ReturnType<typeof setTimeout>>();

/**
 * Realtime: a contact or message event may move a conversation between tabs and statuses. The
 * counts are the server's (visibility, filters), so they are read again, once per burst of events
 * (a 50 messages/s burst refetches four times a second, not fifty).
 */
export function refreshInboxCounts(client: QueryClient): void {
  if (pending.has(client)) return;
  pending.set(
    client,
    setTimeout(() => {
      pending.delete(client);
      void client.invalidateQueries({ queryKey: inboxCountKeys.all });
    }, countsRefreshDelayMs),
  );
}
