/**
 * The first data a signed-in page shows, asked for as the app starts (boot.tsx), beside the page's
 * code rather than after it has loaded and rendered: the request is in the query cache under the
 * page's own key, so the page's query finds it there (in flight or answered) and asks for nothing.
 * Each entry must build the options exactly as its page does, with the page's defaults.
 */
import { defaultPerPage } from '#contracts/list-query.ts';
import { contactQueryOptions } from '#web/api/get-contact.ts';
import { contactsPath, contactsQuery, contactsQueryOptions, emptyContactFilters } from '#web/features/contacts/api/get-contacts.ts';
import { inboxContactsPath, inboxContactsQueryOptions } from '#web/features/inbox/api/get-inbox-contacts.ts';
import { inboxFiltersFromParams } from '#web/features/inbox/api/inbox-filter-params.ts';
import { sessionStore } from '#web/lib/auth.ts';
import { queryClient } from '#web/lib/query-client.ts';

/** Starts the first requests of the page at `pathname` (none for a page not listed here). */
export function prefetchRouteData(pathname: string, search: string): void {
  const { user } = sessionStore.get();
  // A user without an account is sent to /accounts (app/guards.tsx): the page will not show.
  if (!user?.accountId) return;
  const segments = pathname.split('/').filter(Boolean);
  if (segments[0] === 'inbox' && segments.length <= 2) {
    // routes/app/inbox.tsx: the list with the address's filters, and the conversation it opens.
    void queryClient.prefetchInfiniteQuery(inboxContactsQueryOptions(inboxFiltersFromParams(new URLSearchParams(search), user.id)));
    if (segments[1]) void queryClient.prefetchQuery(contactQueryOptions(segments[1]));
  } else if (segments[0] === 'contacts') {
    // features/contacts/components/contacts-table.tsx: the first page, no filter, the default page size.
    void queryClient.prefetchQuery(contactsQueryOptions(contactsQuery(emptyContactFilters, 0, defaultPerPage)));
  }
}

/**
 * The API path of each page's first list request when its address carries no search, for the
 * shell's inline script (web/index.html), which asks for it before any of the app's JavaScript has
 * loaded; the app's own request for that path then takes its answer (lib/early-request.ts). Built
 * at build time from the same functions the pages use (web/build/first-requests.ts), so the two
 * cannot drift apart. Filters from the address (or a conversation's id) are left to the app.
 */
export function firstRequestPaths(): Record<string, string> {
  return {
    // The filters of an address without search; the default tab does not depend on who is signed in.
    '/inbox': inboxContactsPath(inboxFiltersFromParams(new URLSearchParams(), ''), null),
    '/contacts': contactsPath(contactsQuery(emptyContactFilters, 0, defaultPerPage)),
  };
}
