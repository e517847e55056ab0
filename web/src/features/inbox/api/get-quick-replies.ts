import { useQuery } from '@tanstack/react-query';
import type { ListAnswer } from '#contracts/entities.ts';
import { listQueryString, maxPerPage, type ListQueryInput } from '#contracts/list-query.ts';
import type { QuickReply } from '#contracts/quick-replies.ts';
import { api } from '#web/lib/api-client.ts';
import { fold } from '#web/lib/format.ts';
import { quickReplyKeys } from '#web/api/keys.ts';

/** The account's whole catalogue in one page (the same list the quick-replies screen caches). */
const catalogue: ListQueryInput = { where: {}, page: 0, perPage: maxPerPage, withCount: false };

/**
 * GET /quick-replies, whole, for the composer's `/atalho` picker: read when the picker first opens,
 * then filtered here on every keystroke (ADR-0134).
 */
export function useQuickReplyCatalogue(enabled: boolean) {
  return useQuery({
    queryKey: quickReplyKeys.list(catalogue),
    queryFn: ({ signal }) => api.get<ListAnswer<QuickReply>>(`/quick-replies${listQueryString(catalogue)}`, { signal }),
    enabled,
    staleTime: 30_000,
  });
}

/**
 * The quick replies matching what follows the slash: shortcuts starting with it first, then
 * shortcuts or texts containing it (accents and case ignored), each group by shortcut.
 */
export function matchQuickReplies(replies: QuickReply[], typed: string): QuickReply[] {
  const needle = fold(typed.trim());
  if (!needle) return [...replies].sort((a, b) => a.shortcut.localeCompare(b.shortcut));
  const starts: QuickReply[] = [];
  const contains: QuickReply[] = [];
  for (const reply of replies) {
    const shortcut = fold(reply.shortcut);
    if (shortcut.startsWith(needle)) starts.push(reply);
    else if (shortcut.includes(needle) || fold(reply.text).includes(needle)) contains.push(reply);
  }
  const byShortcut = (a: QuickReply, b: QuickReply) => a.shortcut.localeCompare(b.shortcut);
  return [...starts.sort(byShortcut), ...contains.sort(byShortcut)];
}
