import type { NotePayload } from '#contracts/conversations.ts';
import type { Message } from '#contracts/messages.ts';
import { api } from '#web/lib/api-client.ts';

/** POST /messages/notes: an internal note (`kind: 'note'`), stored at once and never sent to the customer. */
export function addNote(payload: NotePayload): Promise<Message> {
  return api.post<Message>('/messages/notes', payload);
}
