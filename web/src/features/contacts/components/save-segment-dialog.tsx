import { useState, type FormEvent } from 'react';
import type { Where } from '#contracts/list-query.ts';
import { segmentPayload } from '#contracts/segments.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog } from '#web/components/ui/dialog.tsx';
import { InputField } from '#web/components/ui/field.tsx';
import { ApiError } from '#web/lib/api-client.ts';
import { reportError } from '#web/lib/errors.ts';
import { showToast } from '#web/lib/notify.ts';
import { useSaveSegment } from '#web/api/segments.ts';

/** 'Salvar como segmento' on the Contatos screen: the filter applied now, under a name (admins). */
export function SaveSegmentDialog({ where, count, onClose }: { where: Where; count: number; onClose: () => void }) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();
  const save = useSaveSegment();
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = segmentPayload.safeParse({ name, where });
    if (!parsed.success) {
      setError(parsed.error.issues.find((i) => i.path[0] === 'name')?.message);
      return;
    }
    try {
      await save.mutateAsync(parsed.data);
      showToast({ tone: 'success', title: 'Segmento salvo' });
      onClose();
    } catch (failure) {
      const message = failure instanceof ApiError ? failure.details.find((d) => d.path === 'name')?.message : undefined;
      if (message) setError(message);
      else reportError(failure);
    }
  };
  return (
    <Dialog
      open
      onClose={onClose}
      title="Salvar como segmento"
      description={`O filtro atual, com ${count} ${count === 1 ? 'contato' : 'contatos'} agora.`}
      size="sm"
    >
      <form onSubmit={(e) => void onSubmit(e)} noValidate className="space-y-4">
        <InputField
          id="segment-name"
          label="Nome do segmento"
          required
          value={name}
          error={error}
          onChange={(e) => {
            setName(e.target.value);
            setError(undefined);
          }}
        />
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
