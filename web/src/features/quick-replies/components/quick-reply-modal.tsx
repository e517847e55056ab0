import { quickReplyPayload, quickReplyVariables, type QuickReply, type QuickReplyPayload } from '#contracts/quick-replies.ts';
import { Dialog } from '#web/components/ui/dialog.tsx';
import { InputField, TextareaField } from '#web/components/ui/field.tsx';
import { FormActions } from '#web/components/ui/form-actions.tsx';
import { DialogLoading } from '#web/components/ui/spinner.tsx';
import { ApiError } from '#web/lib/api-client.ts';
import { useSchemaForm } from '#web/lib/form.ts';
import { showToast } from '#web/lib/notify.ts';
import { useQuickReply, useSaveQuickReply } from '#web/features/quick-replies/api/quick-replies.ts';

type Values = { shortcut: string; text: string };

export function QuickReplyForm({ reply, onClose, onSaved }: { reply?: QuickReply; onClose: () => void; onSaved: () => void }) {
  const form = useSchemaForm<Values, QuickReplyPayload>(quickReplyPayload, { shortcut: reply?.shortcut ?? '', text: reply?.text ?? '' }, 'quick-reply');
  const save = useSaveQuickReply(reply?.id);
  const onSubmit = form.handleSubmit((data) =>
    save.mutate(data, {
      onSuccess: () => {
        showToast({ tone: 'success', title: reply ? 'Resposta rápida atualizada' : 'Resposta rápida criada' });
        onSaved();
      },
      onError: (error) => {
        if (error instanceof ApiError && error.details.length) form.setServerErrors(error.details);
      },
    }),
  );
  const insert = (name: string) => {
    const current = form.getValues('text');
    form.setValue('text', `${current}${current && !current.endsWith(' ') ? ' ' : ''}{{${name}}}`, { shouldValidate: form.formState.isSubmitted });
  };
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <InputField
        label="Atalho"
        required
        autoComplete="off"
        maxLength={31}
        hint="Digite /atalho no chat para usar. Só letras minúsculas, números, - e _."
        {...form.field('shortcut')}
      />
      <TextareaField label="Texto" required rows={5} maxLength={4096} {...form.field('text')} />
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-fg">Variáveis</legend>
        <p className="text-xs text-fg-muted">Preenchidas com os dados do contato ao enviar. Toque para inserir no texto.</p>
        <ul className="flex flex-wrap gap-2">
          {Object.entries(quickReplyVariables).map(([name, meaning]) => (
            <li key={name}>
              <button
                type="button"
                className="rounded-md border border-border bg-surface-2 px-2 py-1 text-left text-xs text-fg hover:border-border-strong focus-visible:outline-2 focus-visible:outline-ring"
                onClick={() => insert(name)}
                aria-label={`Inserir {{${name}}}: ${meaning}`}
              >
                <code className="font-mono">{`{{${name}}}`}</code> <span className="text-fg-muted">{meaning}</span>
              </button>
            </li>
          ))}
        </ul>
      </fieldset>
      <FormActions onCancel={onClose} saving={save.isPending} editing={!!reply} />
    </form>
  );
}

/** 'Criar resposta rápida' / 'Editar resposta rápida'. */
export function QuickReplyModal({ id, onClose, onSaved }: { id?: string; onClose: () => void; onSaved: () => void }) {
  const { loaded, reply } = useQuickReply(id);
  return (
    <Dialog open onClose={onClose} title={id ? 'Editar resposta rápida' : 'Criar resposta rápida'}>
      {id && loaded && !reply ? (
        <p className="text-sm text-fg-muted">Esta resposta rápida não existe mais.</p>
      ) : id && !reply ? (
        <DialogLoading />
      ) : (
        <QuickReplyForm key={reply?.id ?? 'new'} reply={reply} onClose={onClose} onSaved={onSaved} />
      )}
    </Dialog>
  );
}
