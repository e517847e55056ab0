import { infiniteQueryOptions, useInfiniteQuery, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import type { ListAnswer } from '#contracts/entities.ts';
import { listQueryString } from '#contracts/list-query.ts';
import type { Message } from '#contracts/messages.ts';
import { api } from '#web/lib/api-client.ts';
import { newer, shareItemsById } from '#web/lib/list-cache.ts';
import { messageKeys } from '#web/api/keys.ts';

/** A message as the conversation shows it: the server's, or one being sent from this tab. */
export type ChatMessage = Message & {
  /** Set on a message created in this tab and not yet stored by the server. */
  local?: { state: 'sending' | 'failed'; progress?: number; retry?: () => void };
};

type Pages = InfiniteData<ListAnswer<ChatMessage>, string | null>;

export const messagesPageSize = 10;

function includesFor(isGroup: boolean): string[] {
  return isGroup ? ['file', 'thumbnail', 'user', 'quotedMessage', 'groupContact'] : ['file', 'thumbnail', 'user', 'quotedMessage'];
}

/**
 * GET /messages?query=...: 10 messages, newest first; older pages by cursor (`where.id.lt` the
 * oldest id shown), which costs the same at any depth (ADR-0034).
 */
export function getMessages(contactId: string, beforeId: string | null, isGroup = false, signal?: AbortSignal): Promise<ListAnswer<Message>> {
  const where = beforeId ? { contactId, id: { lt: beforeId } } : { contactId };
  const query = { where, include: includesFor(isGroup), order: [['timestamp', 'DESC']] as [string, 'DESC'][], perPage: messagesPageSize, withCount: true };
  return api.get<ListAnswer<Message>>(`/messages${listQueryString(query)}`, { signal });
}

export function messagesQueryOptions(contactId: string, isGroup = false) {
  return infiniteQueryOptions({
    queryKey: messageKeys.list(contactId, isGroup),
    // Rows are memoised on their item: keep each unchanged item's object even when it moves.
    structuralSharing: shareItemsById,
    queryFn: ({ pageParam, signal }) => getMessages(contactId, pageParam, isGroup, signal) as Promise<ListAnswer<ChatMessage>>,
    initialPageParam: null as string | null,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((n, p) => n + p.data.filter((m) => !m.local).length, 0);
      const oldest = last.data.filter((m) => !m.local).at(-1);
      return last.data.length >= messagesPageSize && loaded < last.totalCount && oldest ? oldest.id : undefined;
    },
  });
}

export function useMessages(contactId: string, isGroup = false) {
  return useInfiniteQuery(messagesQueryOptions(contactId, isGroup));
}

/** The loaded messages in reading order (oldest first), each once. */
export function flattenMessages(data: InfiniteData<ListAnswer<ChatMessage>, unknown> | undefined): ChatMessage[] {
  if (!data) return [];
  const seen = new Set<string>();
  const out: ChatMessage[] = [];
  for (const page of data.pages) {
    for (const message of page.data) {
      if (seen.has(message.id)) continue;
      seen.add(message.id);
      out.push(message);
    }
  }
  return out.sort((a, b) => (a.local && !b.local ? 1 : !a.local && b.local ? -1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

function eachConversation(client: QueryClient, contactId: string, update: (data: Pages) => Pages): void {
  for (const query of client.getQueryCache().findAll({ queryKey: messageKeys.conversation(contactId) })) {
    const data = query.state.data as Pages | undefined;
    if (data?.pages?.length) client.setQueryData(query.queryKey, update(data));
  }
}

/** A local message this server message is the stored copy of (same kind, text and file, oldest first). */
function matchesLocal(local: ChatMessage, message: Message): boolean {
  return (
    !!local.local &&
    local.local.state === 'sending' &&
    message.isFromMe &&
    local.kind === (message.kind ?? 'message') &&
    local.text === message.text &&
    (local.fileId ?? null) === (message.fileId ?? null)
  );
}

/** Inserts or replaces a server message in a conversation's pages. */
export function placeMessage(data: Pages, message: ChatMessage): Pages {
  let found = false;
  let pages = data.pages.map((page) => {
    const index = page.data.findIndex((m) => m.id === message.id);
    if (index < 0) return page;
    found = true;
    const merged = newer(page.data[index]!, message);
    if (merged === page.data[index]) return page;
    const list = page.data.slice();
    list[index] = merged;
    return { ...page, data: list };
  });
  if (found) return { ...data, pages };
  // The answer of our own send may come after its event: the local copy is replaced, never doubled.
  const locals = pages
    .flatMap((p) => p.data)
    .filter((m) => matchesLocal(m, message))
    .sort((a, b) => (a.id < b.id ? -1 : 1));
  const local = locals[0];
  if (local) {
    pages = pages.map((page) => ({ ...page, data: page.data.map((m) => (m.id === local.id ? message : m)) }));
    return { ...data, pages };
  }
  const first = pages[0]!;
  const at = first.data.findIndex((m) => !m.local && m.id < message.id);
  const list = first.data.slice();
  list.splice(at < 0 ? list.length : at, 0, message);
  pages[0] = { ...first, data: list, totalCount: first.totalCount + 1 };
  return { ...data, pages };
}

/** Realtime and send answers: a server message finds its place in every cached copy of the conversation. */
export function applyMessage(client: QueryClient, message: Message): void {
  eachConversation(client, message.contactId, (data) => placeMessage(data, message));
}

/** A message typed in this tab, shown at once with ack 0. */
export function addLocalMessage(client: QueryClient, message: ChatMessage): void {
  eachConversation(client, message.contactId, (data) => {
    const first = data.pages[0]!;
    return { ...data, pages: [{ ...first, data: [message, ...first.data] }, ...data.pages.slice(1)] };
  });
}

export function updateLocalMessage(client: QueryClient, contactId: string, localId: string, patch: Partial<ChatMessage>): void {
  eachConversation(client, contactId, (data) => ({
    ...data,
    pages: data.pages.map((page) => ({ ...page, data: page.data.map((m) => (m.id === localId ? { ...m, ...patch } : m)) })),
  }));
}

/** The server stored a local message: the local copy goes, the stored one takes its place. */
export function settleLocalMessage(client: QueryClient, contactId: string, localId: string, message: Message): void {
  eachConversation(client, contactId, (data) => {
    const present = data.pages.some((p) => p.data.some((m) => m.id === message.id));
    const pages = data.pages.map((page) => ({
      ...page,
      data: present ? page.data.filter((m) => m.id !== localId) : page.data.map((m) => (m.id === localId ? message : m)),
    }));
    return placeMessage({ ...data, pages }, message);
  });
}
