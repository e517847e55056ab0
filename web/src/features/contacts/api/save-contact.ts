import type { Contact, ContactPayload } from '#contracts/contacts.ts';
import { api } from '#web/lib/api-client.ts';
import { useSaveEntity } from '#web/lib/use-save-entity.ts';
import { contactKeys } from '#web/api/keys.ts';

/** POST /contacts. */
export function createContact(payload: ContactPayload): Promise<Contact> {
  return api.post<Contact>('/contacts', payload);
}

/** PUT /contacts/{id}. */
export function updateContact(id: string, payload: ContactPayload): Promise<Contact> {
  return api.put<Contact>(`/contacts/${encodeURIComponent(id)}`, payload);
}

export function useSaveContact(id: string | undefined) {
  return useSaveEntity(contactKeys.all, id, { create: createContact, update: updateContact });
}
