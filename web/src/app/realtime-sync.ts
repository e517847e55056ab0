/**
 * Realtime events into the query cache (docs/product.md#entities-and-states, docs/realtime.md): every event replaces or
 * adds its item in the cached lists; after a reconnection, what is shown is refetched. The app layer
 * composes the features' cache rules here, so features stay independent of each other.
 */
import { useEffect } from 'react';
import { partialMatchKey, type QueryClient, type QueryKey } from '@tanstack/react-query';
import type { Contact } from '#contracts/contacts.ts';
import type { RealtimeEvent } from '#contracts/realtime.ts';
import type { Service } from '#contracts/services.ts';
import { accountKeys, contactKeys, serviceKeys, templateKeys, userKeys } from '#web/api/keys.ts';
import { applyContactToInbox } from '#web/features/inbox/api/get-inbox-contacts.ts';
import { refreshInboxCounts } from '#web/features/inbox/api/get-inbox-counts.ts';
import { applyMessage } from '#web/features/inbox/api/get-messages.ts';
import { applyScheduledMessage } from '#web/features/inbox/api/get-scheduled-messages.ts';
import { sessionStore, updateSessionUser } from '#web/lib/auth.ts';
import { newer, replaceEverywhere, type Identified } from '#web/lib/list-cache.ts';
import { alertNewMessage } from '#web/lib/notifications.ts';
import { queryClient } from '#web/lib/query-client.ts';
import { onRealtimeDrop, onRealtimeMessage, onRealtimeReconnect } from '#web/lib/realtime.ts';
import { getMe } from '#web/features/auth/api/get-me.ts';

type RealtimeParser = (raw: string) => RealtimeEvent | null;
let parser: Promise<RealtimeParser> | undefined;

/**
 * The reader of socket messages: one message read with the shared contract; anything else answers
 * null and is ignored. The contract's schemas (every entity the socket carries, ~10 zod objects
 * and their union) are a chunk loaded when the socket opens, not built as the app's code loads:
 * they were part of the first long task of every signed-in screen.
 */
export function loadRealtimeParser(): Promise<RealtimeParser> {
  if (parser) return parser;
  parser = import('#contracts/realtime.ts').then(({ realtimeEvent }) => (raw: string) => {
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      console.debug('Realtime: ignored a message that is not JSON', raw);
      return null;
    }
    const parsed = realtimeEvent.safeParse(json);
    if (parsed.success) return parsed.data;
    console.debug('Realtime: ignored an unknown or invalid event', parsed.error.issues);
    return null;
  });
  // A chunk that failed to load (offline, a new deploy) is asked for again by the next message.
  parser.catch(() => {
    parser = undefined;
  });
  return parser;
}

/** Message ids already announced, so a redelivered or re-read contact never rings twice. */
const announced = new Set<string>();

/** A contact update whose last message is not from me rings once per message (a burst rings once, lib/notifications.ts). */
export function announceIfIncoming(contact: Contact): void {
  const last = contact.lastMessage;
  if (!last || last.isFromMe || contact.unread <= 0 || announced.has(last.id)) return;
  announced.add(last.id);
  alertNewMessage(last.text || (last.file?.name ?? ''));
}

/**
 * Replaces the item wherever its entity is cached. "Add": a created item refetches the lists that
 * do not hold it, since their order, filters and counts are the server's (`except` the lists that
 * place it themselves).
 */
function replaceCached<T extends Identified>(
  client: QueryClient,
  entity: QueryKey,
  item: T,
  created: boolean,
  except?: QueryKey,
  merge: (cached: T, incoming: T) => T = newer,
): void {
  const missing = replaceEverywhere(client, entity, item, merge);
  if (!created) return;
  for (const key of missing) {
    if (except && partialMatchKey(key, except)) continue;
    void client.invalidateQueries({ queryKey: key, exact: true });
  }
}

/**
 * A connection's event goes to every member, so it never carries the admin-only `webhook` (the
 * Cloud API's callback URL and verify token): the cached one stays when the event is applied.
 */
function keepWebhook(cached: Service, incoming: Service): Service {
  const kept = newer(cached, incoming);
  return kept === incoming && !incoming.webhook && cached.webhook ? { ...incoming, webhook: cached.webhook } : kept;
}

export function applyRealtimeEvent(client: QueryClient, event: RealtimeEvent): void {
  // A new item (lists that do not hold it refetch). Read here, not from the contract's module,
  // which the app loads only once the socket opens (loadRealtimeParser).
  const created = event.event.endsWith('.CREATED');
  switch (event.event) {
    case 'message.CREATED':
    case 'message.UPDATED':
      applyMessage(client, event.data);
      // A customer's message reopens a resolved conversation (docs/api.md): the tabs' counts move.
      if (event.event === 'message.CREATED') refreshInboxCounts(client);
      return;
    case 'contact.CREATED':
    case 'contact.UPDATED':
      // The inbox lists place a contact themselves: moved by its last message, added, or dropped.
      replaceCached(client, contactKeys.all, event.data, created, contactKeys.inboxes());
      applyContactToInbox(client, event.data);
      refreshInboxCounts(client);
      announceIfIncoming(event.data);
      return;
    case 'service.CREATED':
    case 'service.UPDATED':
      replaceCached(client, serviceKeys.all, event.data as Service, created, undefined, keepWebhook);
      return;
    case 'user.CREATED':
    case 'user.UPDATED':
      replaceCached(client, userKeys.all, event.data, created);
      if (sessionStore.get().user?.id === event.data.id) updateSessionUser(event.data);
      return;
    case 'template.CREATED':
    case 'template.UPDATED':
      // A connection's templates are one small list, cached whole: the template replaces its copy or joins it.
      client.setQueryData<{ data: (typeof event.data)[] }>(templateKeys.ofService(event.data.serviceId), (cached) => {
        if (!cached) return cached;
        const template = event.data;
        const has = cached.data.some((t) => t.id === template.id);
        const data = has ? cached.data.map((t) => (t.id === template.id ? template : t)) : [...cached.data, template];
        return { data: data.sort((a, b) => a.name.localeCompare(b.name) || a.language.localeCompare(b.language)) };
      });
      return;
    case 'scheduledMessage.CREATED':
    case 'scheduledMessage.UPDATED':
      // A conversation's scheduled messages (ADR-0224): the strip above its composer.
      applyScheduledMessage(client, event.data);
      return;
    case 'account.CREATED':
    case 'account.UPDATED': {
      replaceCached(client, accountKeys.all, event.data, created);
      const account = event.data;
      // The usage counters live on the account: any change of it may have moved them.
      void client.invalidateQueries({ queryKey: accountKeys.usage(account.id) });
      const user = sessionStore.get().user;
      if (user?.account && user.accountId === account.id && user.account.name !== account.name) {
        updateSessionUser({ ...user, account: { id: account.id, name: account.name } });
      }
      return;
    }
  }
}

/** Subscribes the cache to the socket for the signed-in app's lifetime. */
export function useRealtimeSync(client: QueryClient = queryClient): void {
  useEffect(() => {
    let parse: RealtimeParser | undefined;
    let stopped = false;
    // Messages that arrive before the contract has loaded wait for it, in their order.
    const waiting: string[] = [];
    const handle = (raw: string) => {
      const event = parse!(raw);
      if (event) applyRealtimeEvent(client, event);
    };
    const load = () =>
      void loadRealtimeParser().then(
        (loaded) => {
          if (stopped) return;
          parse = loaded;
          for (const raw of waiting.splice(0)) handle(raw);
        },
        (error: unknown) => console.debug('Realtime: the event contract did not load; the next message asks again', error),
      );
    const offEvent = onRealtimeMessage((raw) => {
      if (parse) return handle(raw);
      waiting.push(raw);
      load();
    });
    const offReconnect = onRealtimeReconnect(() => {
      load();
      void client.invalidateQueries({ refetchType: 'active' });
    });
    // A dropped socket may mean the session ended: one check, whose 401 signs out (the API client does that).
    const offDrop = onRealtimeDrop(() => void getMe().catch(() => undefined));
    return () => {
      stopped = true;
      offEvent();
      offReconnect();
      offDrop();
    };
  }, [client]);
}
