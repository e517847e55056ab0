import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ContactImport,
  ContactImportCreated,
  ContactImportPreview,
  ContactImportSettingsInput,
  ContactImportSummary,
} from '#contracts/contact-imports.ts';
import type { ListAnswer } from '#contracts/entities.ts';
import { listQueryString } from '#contracts/list-query.ts';
import { api, NetworkError } from '#web/lib/api-client.ts';

const importKeys = {
  one: (id: string | null) => ['contact-imports', id] as const,
  preview: (id: string | null) => ['contact-imports', id, 'preview'] as const,
  list: (page: number, perPage: number) => ['contact-imports', 'list', page, perPage] as const,
};

/** POST /contact-imports, then the file to its presigned PUT (bound to text/csv and its length): the new import. */
export function useUploadContactImport() {
  return useMutation({
    mutationKey: ['contact-imports', 'upload'],
    mutationFn: async (file: File): Promise<ContactImport> => {
      const created = await api.post<ContactImportCreated>('/contact-imports', { name: file.name, length: file.size });
      let put: Response;
      try {
        put = await fetch(created.urlToUpload, { method: 'PUT', headers: { 'content-type': created.mimetype }, body: file });
      } catch (error) {
        throw new NetworkError(error);
      }
      if (!put.ok) throw new Error(`upload ${put.status}`);
      return created.import;
    },
  });
}

/** GET /contact-imports/{id}/preview: the file's header, first rows and the mapping its header suggests. */
export function useContactImportPreview(id: string | null) {
  return useQuery({
    queryKey: importKeys.preview(id),
    queryFn: ({ signal }) => api.get<ContactImportPreview>(`/contact-imports/${encodeURIComponent(id!)}/preview`, { signal }),
    enabled: Boolean(id),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** POST /contact-imports/{id}/start: the check (dryRun) or the import, in the background. */
export function useStartContactImport(id: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['contact-imports', id, 'start'],
    mutationFn: (settings: ContactImportSettingsInput) => api.post<ContactImport>(`/contact-imports/${encodeURIComponent(id!)}/start`, settings),
    // The answer is the running pass: the progress polling starts from it, not from the last pass's end; the list shows it running.
    onSuccess: (started) => {
      queryClient.setQueryData(importKeys.one(id), started);
      void queryClient.invalidateQueries({ queryKey: ['contact-imports', 'list'] });
    },
  });
}

const running = (status: ContactImport['status'] | undefined) => status === 'checking' || status === 'importing';

/** GET /contact-imports/{id}, read every second while a check or the import runs (the progress bar). */
export function useContactImport(id: string | null) {
  return useQuery({
    queryKey: importKeys.one(id),
    queryFn: ({ signal }) => api.get<ContactImport>(`/contact-imports/${encodeURIComponent(id!)}`, { signal }),
    enabled: Boolean(id),
    refetchInterval: (query) => (running(query.state.data?.status) || !query.state.data ? 1000 : false),
  });
}

/**
 * GET /contact-imports: 'Importações recentes', the checks and imports (an upload never checked is
 * left out), newest first; read every second while one of the page runs, as the screen reads its own.
 */
export function useContactImports(page: number, perPage: number) {
  return useQuery({
    queryKey: importKeys.list(page, perPage),
    queryFn: ({ signal }) =>
      api.get<ListAnswer<ContactImportSummary>>(`/contact-imports${listQueryString({ where: { status: { ne: 'waiting' } }, page, perPage })}`, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.data.some((row) => running(row.status)) ? 1000 : false),
  });
}
