import { useFieldArray } from 'react-hook-form';
import { Plus, Trash2 } from 'lucide-react';
import {
  marketingBillingNote,
  templateCategories,
  templateCategoryLabels,
  templateLimits,
  templatePayload,
  variableCount,
  type TemplatePayload,
} from '#contracts/templates.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog } from '#web/components/ui/dialog.tsx';
import { InputField, SelectField, TextareaField } from '#web/components/ui/field.tsx';
import { FormActions } from '#web/components/ui/form-actions.tsx';
import { rowActionClass } from '#web/components/ui/list-page.tsx';
import { Alert } from '#web/components/ui/misc.tsx';
import { ApiError } from '#web/lib/api-client.ts';
import { useSchemaForm } from '#web/lib/form.ts';
import { showToast } from '#web/lib/notify.ts';
import { useCreateTemplate } from '#web/features/services/api/templates.ts';

type ButtonType = 'QUICK_REPLY' | 'URL' | 'PHONE_NUMBER';
type Values = {
  name: string;
  category: string;
  language: string;
  header: string;
  body: string;
  examples: string[];
  footer: string;
  buttons: { type: ButtonType; text: string; url: string; phoneNumber: string }[];
};

const buttonTypeLabels: Record<ButtonType, string> = { QUICK_REPLY: 'Resposta rápida', URL: 'Link', PHONE_NUMBER: 'Ligar' };

const empty: Values = { name: '', category: '', language: 'pt_BR', header: '', body: '', examples: [], footer: '', buttons: [] };

/** 'Novo modelo': the fields Meta reviews, with an example per variable of the body. */
export function TemplateForm({ serviceId, onClose, onSaved }: { serviceId: string; onClose: () => void; onSaved: () => void }) {
  const form = useSchemaForm<Values, TemplatePayload>(templatePayload, empty, 'template');
  const buttons = useFieldArray({ control: form.control, name: 'buttons' });
  const create = useCreateTemplate(serviceId);
  const body = form.watch('body');
  const category = form.watch('category');
  const variables = variableCount(body ?? '');

  const onSubmit = form.handleSubmit((data) =>
    create.mutate(data, {
      onSuccess: () => {
        showToast({ tone: 'success', title: 'Modelo enviado para análise da Meta' });
        onSaved();
      },
      onError: (error) => {
        if (error instanceof ApiError && error.details.length) form.setServerErrors(error.details);
      },
    }),
  );
  const addVariable = () => {
    const current = form.getValues('body');
    form.setValue('body', `${current}${current && !current.endsWith(' ') ? ' ' : ''}{{${variables + 1}}}`, { shouldValidate: form.formState.isSubmitted });
  };

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <InputField
        label="Nome"
        required
        autoComplete="off"
        maxLength={templateLimits.name}
        hint="Só letras minúsculas, números e _, como pedido_enviado."
        {...form.field('name')}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          label="Categoria"
          required
          placeholder="Escolha a categoria"
          options={templateCategories.map((c) => ({ value: c, label: templateCategoryLabels[c] }))}
          {...form.field('category')}
        />
        <InputField label="Idioma" required autoComplete="off" maxLength={6} hint="pt_BR para português do Brasil." {...form.field('language')} />
      </div>
      {category === 'MARKETING' ? <Alert tone="warning">{marketingBillingNote}</Alert> : null}
      <InputField label="Cabeçalho" autoComplete="off" maxLength={templateLimits.header} hint="Opcional, sem variáveis." {...form.field('header')} />
      <TextareaField
        label="Corpo"
        required
        rows={5}
        maxLength={templateLimits.body}
        hint="Use {{1}}, {{2}}... onde entram os dados de cada cliente."
        {...form.field('body')}
      />
      <Button type="button" variant="outline" size="sm" onClick={addVariable}>
        <Plus className="size-4" aria-hidden="true" /> Inserir variável {`{{${variables + 1}}}`}
      </Button>
      {variables > 0 ? (
        <fieldset className="space-y-3">
          <legend className="text-sm font-medium text-fg">Exemplos das variáveis</legend>
          <p className="text-xs text-fg-muted">A Meta pede um exemplo de cada variável para analisar o modelo.</p>
          {Array.from({ length: variables }, (_, i) => (
            <InputField
              // biome-ignore lint/suspicious/noArrayIndexKey: one input per variable number
              key={i}
              label={`Exemplo de {{${i + 1}}}`}
              required
              autoComplete="off"
              maxLength={templateLimits.example}
              {...form.field(`examples.${i}` as 'examples.0')}
            />
          ))}
        </fieldset>
      ) : null}
      <InputField label="Rodapé" autoComplete="off" maxLength={templateLimits.footer} hint="Opcional, sem variáveis." {...form.field('footer')} />
      <fieldset className="space-y-3">
        <legend className="text-sm font-medium text-fg">Botões</legend>
        <p className="text-xs text-fg-muted">Opcionais: até 10, sendo no máximo 2 links e 1 telefone.</p>
        {buttons.fields.map((button, i) => {
          const type = form.watch(`buttons.${i}.type`);
          return (
            <div key={button.id} className="space-y-3 rounded-xl border border-border p-3">
              <div className="flex items-end gap-2">
                <SelectField
                  className="min-w-36"
                  label={`Tipo do botão ${i + 1}`}
                  options={(Object.keys(buttonTypeLabels) as ButtonType[]).map((t) => ({ value: t, label: buttonTypeLabels[t] }))}
                  {...form.field(`buttons.${i}.type`)}
                />
                <button
                  type="button"
                  className={`${rowActionClass} mb-1`}
                  onClick={() => buttons.remove(i)}
                  aria-label={`Remover botão ${i + 1}`}
                  title="Remover botão"
                >
                  <Trash2 className="size-4" aria-hidden="true" />
                </button>
              </div>
              <InputField
                label={`Texto do botão ${i + 1}`}
                required
                autoComplete="off"
                maxLength={templateLimits.buttonText}
                {...form.field(`buttons.${i}.text`)}
              />
              {type === 'URL' ? (
                <InputField label="Endereço" required type="url" autoComplete="off" placeholder="https://" {...form.field(`buttons.${i}.url`)} />
              ) : null}
              {type === 'PHONE_NUMBER' ? (
                <InputField label="Telefone" required type="tel" autoComplete="off" placeholder="+5511987654321" {...form.field(`buttons.${i}.phoneNumber`)} />
              ) : null}
            </div>
          );
        })}
        {(() => {
          const error = form.getFieldState('buttons', form.formState).error;
          return error?.message ? (
            <p className="text-sm text-danger" role="alert">
              {error.message}
            </p>
          ) : null;
        })()}
        {buttons.fields.length < templateLimits.buttons ? (
          <Button type="button" variant="outline" size="sm" onClick={() => buttons.append({ type: 'QUICK_REPLY', text: '', url: '', phoneNumber: '' })}>
            <Plus className="size-4" aria-hidden="true" /> Adicionar botão
          </Button>
        ) : null}
      </fieldset>
      <p className="text-xs text-fg-muted">{marketingBillingNote} A Meta analisa cada modelo antes de liberar o envio, em geral em minutos.</p>
      <FormActions onCancel={onClose} saving={create.isPending} editing={false} />
    </form>
  );
}

/** 'Novo modelo de mensagem'. */
export function TemplateModal({ serviceId, onClose, onSaved }: { serviceId: string; onClose: () => void; onSaved: () => void }) {
  return (
    <Dialog open onClose={onClose} title="Novo modelo de mensagem">
      <TemplateForm serviceId={serviceId} onClose={onClose} onSaved={onSaved} />
    </Dialog>
  );
}
