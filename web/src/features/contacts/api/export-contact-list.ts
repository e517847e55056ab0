import { useMutation } from '@tanstack/react-query';
import { listQueryString, type Where } from '#contracts/list-query.ts';
import { api } from '#web/lib/api-client.ts';

/** What POST /contacts/csv-export answers: a signed link to the file written to the bucket (ADR-0226). */
interface ContactListExport {
  url: string;
  filename: string;
  rows: number;
  bytes: number;
}

/** 'Exportar CSV': the server writes the filtered list, the browser follows the link (the file comes as an attachment). */
async function exportContactList(where: Where): Promise<ContactListExport> {
  const answer = await api.post<ContactListExport>(`/contacts/csv-export${listQueryString({ where, order: [['name', 'ASC']] })}`);
  const link = document.createElement('a');
  link.href = answer.url;
  link.download = answer.filename;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  return answer;
}

export function useExportContactList() {
  return useMutation({ mutationKey: ['contacts', 'csv-export'], mutationFn: exportContactList });
}
