import { api } from '#web/lib/api-client.ts';

/** POST /quick-replies/{id}/render: the quick reply's text with this contact's and the caller's variables filled. */
export function renderQuickReply(id: string, contactId: string): Promise<{ text: string }> {
  return api.post<{ text: string }>(`/quick-replies/${encodeURIComponent(id)}/render`, { contactId });
}
