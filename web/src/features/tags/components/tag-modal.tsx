import { tagPayload, type Tag, type TagPayload } from '#contracts/tags.ts';
import { Dialog } from '#web/components/ui/dialog.tsx';
import { FieldShell, InputField } from '#web/components/ui/field.tsx';
import { FormActions } from '#web/components/ui/form-actions.tsx';
import { DialogLoading } from '#web/components/ui/spinner.tsx';
import { TagChip } from '#web/components/ui/tag-chip.tsx';
import { ApiError } from '#web/lib/api-client.ts';
import { useSchemaForm } from '#web/lib/form.ts';
import { showToast } from '#web/lib/notify.ts';
import { useAllTags } from '#web/api/tags.ts';
import { useSaveTag } from '#web/features/tags/api/tags.ts';

type Values = { name: string; color: string };

/** A few ready colours, each legible with black or white text. */
const palette = ['#047857', '#2563eb', '#7c3aed', '#db2777', '#dc2626', '#ea580c', '#ca8a04', '#475569'];

export function TagForm({ tag, onClose, onSaved }: { tag?: Tag; onClose: () => void; onSaved: () => void }) {
  const form = useSchemaForm<Values, TagPayload>(tagPayload, { name: tag?.name ?? '', color: tag?.color ?? palette[0]! }, 'tag');
  const save = useSaveTag(tag?.id);
  const color = form.watch('color');
  const name = form.watch('name');
  const onSubmit = form.handleSubmit((data) =>
    save.mutate(data, {
      onSuccess: () => {
        showToast({ tone: 'success', title: tag ? 'Etiqueta atualizada' : 'Etiqueta criada' });
        onSaved();
      },
      onError: (error) => {
        if (error instanceof ApiError && error.details.length) form.setServerErrors(error.details);
      },
    }),
  );
  const { error: colorError, ...colorInput } = form.field('color');
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <InputField label="Nome" required autoComplete="off" maxLength={40} {...form.field('name')} />
      <FieldShell id={colorInput.id} label="Cor" required error={colorError} hint="Escolha na paleta ou digite no formato #RRGGBB.">
        <div className="flex items-center gap-3">
          <input
            type="color"
            aria-label="Cor (seletor)"
            className="h-10 w-12 shrink-0 cursor-pointer rounded-lg border border-border-strong bg-surface p-1"
            value={/^#[0-9a-fA-F]{6}$/.test(color) ? color.toLowerCase() : '#000000'}
            onChange={(e) => form.setValue('color', e.target.value, { shouldValidate: form.formState.isSubmitted })}
          />
          <input
            {...colorInput}
            aria-invalid={colorError ? true : undefined}
            aria-describedby={colorError ? `${colorInput.id}-error` : `${colorInput.id}-hint`}
            autoComplete="off"
            spellCheck={false}
            maxLength={7}
            className="block h-10 w-32 rounded-lg border border-border-strong bg-surface px-3 font-mono text-sm text-fg focus-visible:outline-2 focus-visible:outline-ring"
          />
        </div>
      </FieldShell>
      <fieldset className="flex flex-wrap gap-2">
        <legend className="sr-only">Cores sugeridas</legend>
        {palette.map((c) => (
          <button
            key={c}
            type="button"
            aria-label={`Usar a cor ${c}`}
            aria-pressed={color.toLowerCase() === c}
            className="size-7 rounded-full border-2 border-transparent ring-offset-2 ring-offset-surface aria-pressed:ring-2 aria-pressed:ring-fg focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
            style={{ backgroundColor: c }}
            onClick={() => form.setValue('color', c, { shouldValidate: form.formState.isSubmitted })}
          />
        ))}
      </fieldset>
      <p className="flex items-center gap-2 text-sm text-fg-muted">
        Prévia: <TagChip name={name.trim() || 'Etiqueta'} color={/^#[0-9a-fA-F]{6}$/.test(color) ? color : '#475569'} />
      </p>
      <FormActions onCancel={onClose} saving={save.isPending} editing={!!tag} />
    </form>
  );
}

/** 'Criar etiqueta' / 'Editar etiqueta' (the API has no GET /tags/{id}: the tag comes from the palette). */
export function TagModal({ id, onClose, onSaved }: { id?: string; onClose: () => void; onSaved: () => void }) {
  const tags = useAllTags();
  const tag = id ? tags.data?.data.find((t) => t.id === id) : undefined;
  const missing = !!id && !!tags.data && !tag;
  return (
    <Dialog open onClose={onClose} title={id ? 'Editar etiqueta' : 'Criar etiqueta'}>
      {missing ? (
        <p className="text-sm text-fg-muted">Esta etiqueta não existe mais.</p>
      ) : id && !tag ? (
        <DialogLoading />
      ) : (
        <TagForm key={tag?.id ?? 'new'} tag={tag} onClose={onClose} onSaved={onSaved} />
      )}
    </Dialog>
  );
}
