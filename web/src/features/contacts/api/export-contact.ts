import { useMutation } from '@tanstack/react-query';
import type { Contact } from '#contracts/contacts.ts';
import { api } from '#web/lib/api-client.ts';

/** What GET /contacts/{id}/export answers: the profile and the whole conversation, with file links. */
interface ContactExport {
  exportedAt: string;
  contact: Contact;
  messages: unknown[];
}

/** The file name of a contact's export: `contato-<name>-<yyyy-mm-dd>.json`, plain letters only. */
export function exportFileName(contact: Pick<Contact, 'name'>, at: Date): string {
  const slug =
    contact.name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 40) || 'contato';
  return `contato-${slug}-${at.toISOString().slice(0, 10)}.json`;
}

/** Fetches a contact's export and saves it as a JSON file in the browser. */
async function downloadContactExport(contact: Pick<Contact, 'id' | 'name'>): Promise<void> {
  const data = await api.get<ContactExport>(`/contacts/${encodeURIComponent(contact.id)}/export`);
  const blob = new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = exportFileName(contact, new Date(data.exportedAt));
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function useExportContact() {
  return useMutation({ mutationKey: ['contacts', 'export'], mutationFn: downloadContactExport });
}
