/**
 * Realtime events into the query cache (SPEC section 4, docs/realtime.md): every event replaces or
 * adds its item in the cached lists; after a reconnection, what is shown is refetched. The app layer
 * composes the features' cache rules here, so features stay independent of each other.
 */
import { useEffect } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import type { Contact } from '#contracts/contacts.ts';
import type { Account, User } from '#contracts/entities.ts';
import type { Message } from '#contracts/messages.ts';
import type { Service } from '#contracts/services.ts';
import { applyContactToInbox } from '#web/features/inbox/api/get-inbox-contacts.ts';
import { applyMessage } from '#web/features/inbox/api/get-messages.ts';
import { sessionStore, updateSessionUser } from '#web/lib/auth.ts';
import { replaceEverywhere, type Identified } from '#web/lib/list-cache.ts';
import { playNotificationSound, showNewMessageNotification } from '#web/lib/notifications.ts';
import { queryClient } from '#web/lib/query-client.ts';
import { onRealtimeEvent, onRealtimeReconnect, type RealtimeEvent } from '#web/lib/realtime.ts';

const entityPrefixes: Record<string, string> = {
  service: 'services',
  user: 'users',
  contact: 'contacts',
  account: 'accounts',
};

/** Message ids already announced, so a redelivered or re-read contact never rings twice. */
const announced = new Set<string>();

/** A contact update whose last message is not from me rings once per message. */
export function announceIfIncoming(contact: Contact): void {
  const last = contact.lastMessage;
  if (!last || last.isFromMe || contact.unread <= 0 || announced.has(last.id)) return;
  announced.add(last.id);
  const body = last.text || (last.file?.name ?? '');
  void showNewMessageNotification(body);
  playNotificationSound();
}

export function applyRealtimeEvent(client: QueryClient, { event, data }: RealtimeEvent): void {
  const [entity, action] = event.split('.');
  const item = data as Identified;
  if (!entity || !item?.id) return;
  if (entity === 'message') {
    applyMessage(client, data as Message);
    return;
  }
  const prefix = entityPrefixes[entity];
  if (!prefix) return;
  const missing = replaceEverywhere(client, [prefix], item);
  if (entity === 'contact') {
    applyContactToInbox(client, data as Contact);
    announceIfIncoming(data as Contact);
  }
  // "Add": a new item belongs in lists whose order, filters and counts the server knows.
  if (action === 'CREATED') {
    for (const key of missing) {
      if (key[1] === 'inbox') continue;
      void client.invalidateQueries({ queryKey: key, exact: true });
    }
  }
  if (entity === 'user' && sessionStore.get().user?.id === item.id) updateSessionUser(data as User);
  if (entity === 'account') {
    const user = sessionStore.get().user;
    const account = data as Account;
    if (user?.account && user.accountId === account.id && user.account.name !== account.name) {
      updateSessionUser({ ...user, account: { id: account.id, name: account.name } });
    }
  }
}

/** Subscribes the cache to the socket for the signed-in app's lifetime. */
export function useRealtimeSync(client: QueryClient = queryClient): void {
  useEffect(() => {
    const offEvent = onRealtimeEvent((event) => applyRealtimeEvent(client, event));
    const offReconnect = onRealtimeReconnect(() => void client.invalidateQueries({ refetchType: 'active' }));
    return () => {
      offEvent();
      offReconnect();
    };
  }, [client]);
}
