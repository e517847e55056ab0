import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Contact } from '#contracts/contacts.ts';
import type { ConversationStatus, TransferPayload } from '#contracts/conversations.ts';
import { api } from '#web/lib/api-client.ts';
import { replaceEverywhere } from '#web/lib/list-cache.ts';
import { contactKeys } from '#web/api/keys.ts';
import { applyContactToInbox } from './get-inbox-contacts.ts';

/** One change of who handles a conversation or of its status (docs/product.md#team-inbox). */
export type ConversationChange =
  | { action: 'take' }
  | { action: 'release' }
  | { action: 'transfer'; payload: TransferPayload }
  | { action: 'status'; status: ConversationStatus };

/** POST /contacts/{id}/take | release | transfer | status: the contact as it now is. */
export function changeConversation(id: string, change: ConversationChange): Promise<Contact> {
  const path = `/contacts/${encodeURIComponent(id)}/${change.action}`;
  if (change.action === 'transfer') return api.post<Contact>(path, change.payload);
  if (change.action === 'status') return api.post<Contact>(path, { status: change.status });
  return api.post<Contact>(path);
}

/** The answer replaces every cached copy of the contact and finds its place in the inbox lists (as a realtime update would). */
export function applyChangedContact(client: QueryClient, contact: Contact): void {
  replaceEverywhere(client, contactKeys.all, contact);
  applyContactToInbox(client, contact);
}

/** The callers show the errors themselves (the 409 of a taken conversation, the dialog's fields). */
export function useChangeConversation() {
  const client = useQueryClient();
  return useMutation({
    mutationKey: [...contactKeys.all, 'conversation'],
    meta: { silent: true },
    mutationFn: ({ id, change }: { id: string; change: ConversationChange }) => changeConversation(id, change),
    onSuccess: (contact) => applyChangedContact(client, contact),
  });
}
