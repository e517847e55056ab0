import { useEffect, useState, type FormEvent } from 'react';
import type { Segment } from '#contracts/segments.ts';
import { segmentPayload } from '#contracts/segments.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog } from '#web/components/ui/dialog.tsx';
import { InputField } from '#web/components/ui/field.tsx';
import { useAllTags } from '#web/api/tags.ts';
import { ApiError } from '#web/lib/api-client.ts';
import { reportError } from '#web/lib/errors.ts';
import { showToast } from '#web/lib/notify.ts';
import { useContactCount, useSaveSegment } from '#web/api/segments.ts';
import { contactWhere, emptyContactFilters, filtersOfWhere, type ContactFilters } from '#web/features/contacts/contact-filters.ts';
import { ContactFilterFields } from './contact-filter-fields.tsx';

/** How long the filter must stay unchanged before the count is asked again. */
const countDelayMs = 400;

const none: never[] = [];

/** The count of the filter being edited, asked once the typing settles. */
function useSettledCount(filters: ContactFilters) {
  const [settled, setSettled] = useState(filters);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(filters), countDelayMs);
    return () => clearTimeout(timer);
  }, [filters]);
  const count = useContactCount(contactWhere(settled));
  return { count: count.data, updating: settled !== filters || count.isFetching };
}

/**
 * 'Novo segmento' and 'Editar segmento' (admins): the name and the contacts' filter fields, with how
 * many contacts match as the filter changes (ADR-0226).
 */
export function SegmentEditor({ segment, onClose }: { segment?: Segment; onClose: () => void }) {
  const [name, setName] = useState(segment?.name ?? '');
  const [filters, setFilters] = useState<ContactFilters>(segment ? filtersOfWhere(segment.where) : emptyContactFilters);
  const [error, setError] = useState<string>();
  const save = useSaveSegment(segment?.id);
  const tags = useAllTags().data?.data ?? none;
  const { count, updating } = useSettledCount(filters);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = segmentPayload.safeParse({ name, where: contactWhere(filters) });
    if (!parsed.success) {
      setError(parsed.error.issues.find((i) => i.path[0] === 'name')?.message);
      return;
    }
    try {
      await save.mutateAsync(parsed.data);
      showToast({ tone: 'success', title: segment ? 'Segmento atualizado' : 'Segmento criado' });
      onClose();
    } catch (failure) {
      const message = failure instanceof ApiError ? failure.details.find((d) => d.path === 'name')?.message : undefined;
      if (message) setError(message);
      else reportError(failure);
    }
  };

  return (
    <Dialog open onClose={onClose} title={segment ? 'Editar segmento' : 'Novo segmento'} size="lg">
      <form onSubmit={(e) => void onSubmit(e)} noValidate className="space-y-4">
        <InputField
          id="segment-editor-name"
          label="Nome do segmento"
          required
          value={name}
          error={error}
          onChange={(e) => {
            setName(e.target.value);
            setError(undefined);
          }}
        />
        <fieldset className="grid gap-4 sm:grid-cols-2">
          <legend className="mb-2 text-sm font-medium text-fg">Filtro</legend>
          <ContactFilterFields idPrefix="segment-filter" value={filters} onChange={setFilters} tags={tags} />
        </fieldset>
        <p className="text-sm text-fg" role="status" aria-live="polite" aria-busy={updating || undefined} data-testid="segment-count">
          {count === undefined ? 'Contando contatos...' : `${count} ${count === 1 ? 'contato' : 'contatos'} neste segmento agora`}
        </p>
        <div className="flex justify-end gap-2">
          <Button variant="outline" onClick={onClose}>
            Cancelar
          </Button>
          <Button type="submit" loading={save.isPending}>
            Salvar segmento
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
