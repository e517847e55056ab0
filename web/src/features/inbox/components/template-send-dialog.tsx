import { useId, useMemo, useRef, useState, type FormEvent } from 'react';
import type { Contact } from '#contracts/contacts.ts';
import { fillVariables, variableValues } from '#contracts/quick-replies.ts';
import { marketingBillingNote, renderTemplate, templateCategoryLabels, templateParameterValues, type MessageTemplate } from '#contracts/templates.ts';
import { Button, ButtonLink } from '#web/components/ui/button.tsx';
import { Dialog } from '#web/components/ui/dialog.tsx';
import { InputField, SelectField } from '#web/components/ui/field.tsx';
import { Alert } from '#web/components/ui/misc.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { useTemplates } from '#web/api/message-templates.ts';
import { ApiError } from '#web/lib/api-client.ts';
import { useSession } from '#web/lib/auth.ts';
import { reportError } from '#web/lib/errors.ts';
import { showToast } from '#web/lib/notify.ts';
import { useSendTemplate } from '#web/features/inbox/api/send-template.ts';

export const templateSendTexts = {
  title: 'Enviar modelo de mensagem',
  description: 'Fora da janela de 24 horas, só modelos aprovados pela Meta chegam ao cliente.',
  none: 'Nenhum modelo aprovado nesta conexão ainda.',
  noneAdmin: 'Crie ou sincronize os modelos em Modelos de mensagem; a Meta analisa cada um antes de liberar o envio.',
  noneMember: 'Peça a um administrador para criar os modelos; a Meta analisa cada um antes de liberar o envio.',
  loadFailed: 'Não foi possível carregar os modelos de mensagem.',
  variablesHint: 'Digite o valor ou use {{primeiro_nome}}, {{nome}}, {{telefone}}, {{email}} ou {{atendente}}.',
  sent: 'Modelo enviado',
} as const;

type ContactForTemplate = Pick<Contact, 'id' | 'name' | 'serviceId' | 'data'>;

/** A template's option label: its name, and its language when it is not pt_BR. */
const optionLabel = (t: MessageTemplate) => `${t.name} · ${templateCategoryLabels[t.category]}${t.language === 'pt_BR' ? '' : ` (${t.language})`}`;

/**
 * 'Enviar modelo de mensagem': the approved templates of the contact's WhatsApp (API oficial)
 * connection, one field per `{{n}}` variable (a typed value or a contact field, as in quick
 * replies), the message as the customer will read it, and Meta's billing note for marketing ones.
 * The same check as the server's (`templateParameterValues`) runs before sending; the server's
 * field messages land on their fields.
 */
export function TemplateSendDialog({ contact, onClose, onSent }: { contact: ContactForTemplate; onClose: () => void; onSent?: () => void }) {
  const { user } = useSession();
  const templates = useTemplates(contact.serviceId);
  const approved = useMemo(() => (templates.data?.data ?? []).filter((t) => t.status === 'APPROVED'), [templates.data]);
  const [chosenId, setChosenId] = useState('');
  const [parameters, setParameters] = useState<string[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const send = useSendTemplate(contact);
  const firstField = useRef<HTMLSelectElement>(null);
  const ids = useId();

  const template = approved.find((t) => t.id === chosenId) ?? approved[0];
  const values = template ? Array.from({ length: template.variableCount }, (_, i) => parameters[i] ?? '') : [];
  const context = {
    contact: { name: contact.name, data: { phoneNumber: contact.data?.phoneNumber ?? null, email: contact.data?.email ?? null } },
    agent: { name: user?.name ?? '' },
  };
  const fields = variableValues(context);
  const preview = template
    ? renderTemplate(
        template,
        values.map((v, i) => fillVariables(v, fields).trim() || `{{${i + 1}}}`),
      )
    : '';

  const choose = (id: string) => {
    setChosenId(id);
    setParameters([]);
    setErrors({});
  };
  const setParameter = (index: number, value: string) => {
    setParameters((current) => {
      const next = values.slice();
      next[index] = value;
      return next.length >= current.length ? next : [...next, ...current.slice(next.length)];
    });
    setErrors((current) => {
      const { [`template.parameters.${index}`]: _, ...rest } = current;
      return rest;
    });
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!template) return;
    const check = templateParameterValues(values, template.variableCount, context);
    if (!check.ok) {
      setErrors({ [check.path]: check.message });
      document.getElementById(`${ids}-${check.path}`)?.focus();
      return;
    }
    try {
      await send.mutateAsync({ name: template.name, language: template.language, parameters: values });
      showToast({ tone: 'success', title: templateSendTexts.sent, message: `${template.name} enviado para ${contact.name}.` });
      onSent?.();
      onClose();
    } catch (error) {
      if (error instanceof ApiError && error.status === 400 && error.details.length) {
        setErrors(Object.fromEntries(error.details.map((d) => [d.path.startsWith('template.parameters') ? d.path : 'template.name', d.message])));
        return;
      }
      reportError(error);
    }
  };

  const fieldError = (path: string) => errors[path];
  const nameError = fieldError('template.name') ?? fieldError('template.parameters');

  return (
    <Dialog open onClose={onClose} title={templateSendTexts.title} description={templateSendTexts.description} initialFocusRef={firstField} size="lg">
      {templates.isPending ? (
        <p className="flex items-center gap-2 text-sm text-fg-muted" role="status">
          <Spinner className="size-4 text-brand" /> Carregando...
        </p>
      ) : templates.isError ? (
        <Alert tone="danger">{templateSendTexts.loadFailed}</Alert>
      ) : !template ? (
        <div className="space-y-3" data-testid="no-templates">
          <p className="text-sm font-semibold text-fg">{templateSendTexts.none}</p>
          <p className="text-sm text-fg-muted">{user?.isAdmin ? templateSendTexts.noneAdmin : templateSendTexts.noneMember}</p>
          <div className="flex justify-end gap-2 pt-2">
            {user?.isAdmin ? (
              <ButtonLink to={`/services/${encodeURIComponent(contact.serviceId)}/templates`} variant="outline">
                Ver modelos de mensagem
              </ButtonLink>
            ) : null}
            <Button variant="outline" onClick={onClose}>
              Fechar
            </Button>
          </div>
        </div>
      ) : (
        <form onSubmit={(e) => void onSubmit(e)} noValidate className="space-y-4">
          <SelectField
            ref={firstField}
            id={`${ids}-template.name`}
            label="Modelo"
            options={approved.map((t) => ({ value: t.id, label: optionLabel(t) }))}
            value={template.id}
            onChange={(e) => choose(e.target.value)}
            error={nameError}
          />
          {values.map((value, i) => (
            <InputField
              // biome-ignore lint/suspicious/noArrayIndexKey: one field per numbered variable, in order
              key={`${template.id}-${i}`}
              id={`${ids}-template.parameters.${i}`}
              label={`Variável {{${i + 1}}}`}
              placeholder={template.examples[i] ? `Exemplo: ${template.examples[i]}` : undefined}
              hint={i === 0 ? templateSendTexts.variablesHint : undefined}
              value={value}
              maxLength={1024}
              onChange={(e) => setParameter(i, e.target.value)}
              error={fieldError(`template.parameters.${i}`)}
            />
          ))}
          <div>
            <p className="mb-1 text-sm font-medium text-fg">Como o cliente vai ler</p>
            <p className="rounded-lg border border-border bg-bg-subtle px-3 py-2 text-sm whitespace-pre-wrap text-fg" data-testid="template-preview">
              {preview}
            </p>
            {template.buttons.length ? (
              <ul className="mt-2 flex flex-wrap gap-2" aria-label="Botões do modelo">
                {template.buttons.map((b) => (
                  <li key={`${b.type}-${b.text}`} className="rounded-full border border-border px-3 py-1 text-xs text-fg-muted">
                    {b.text}
                  </li>
                ))}
              </ul>
            ) : null}
          </div>
          {template.category === 'MARKETING' ? <p className="text-xs text-fg-muted">{marketingBillingNote}</p> : null}
          <div className="flex justify-end gap-2 pt-2">
            <Button variant="outline" onClick={onClose}>
              Cancelar
            </Button>
            <Button type="submit" loading={send.isPending}>
              Enviar modelo
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
