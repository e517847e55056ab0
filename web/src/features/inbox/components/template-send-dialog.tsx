import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import type { Contact } from '#contracts/contacts.ts';
import { fillVariables, variableValues } from '#contracts/quick-replies.ts';
import {
  buttonValueKind,
  headerMedia,
  headerVariableCount,
  isHeaderMedia,
  renderFilledTemplate,
  templateFillSchema,
  templateFillTexts,
  unsupportedButtonKind,
} from '#contracts/template-fill.ts';
import { marketingBillingNote } from '#contracts/templates.ts';
import { Button, ButtonLink } from '#web/components/ui/button.tsx';
import { Dialog } from '#web/components/ui/dialog.tsx';
import { InputField, SelectField } from '#web/components/ui/field.tsx';
import { Alert } from '#web/components/ui/misc.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { useTemplates } from '#web/api/message-templates.ts';
import { templateButtonLabel, templateOptionLabel } from '#web/components/template-labels.ts';
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

/** The fields a server refusal may name; any other path goes on the template's field. */
const fieldPath = (path: string) => (/^template\.(parameters|header|buttons)(\.\d+)?$/.test(path) || path === 'fileId' ? path : 'template.name');

/**
 * 'Enviar modelo de mensagem': the approved templates of the contact's WhatsApp (API oficial)
 * connection and one labelled field per value the chosen one needs (ADR-0222):
 * its text header's `{{1}}` or its media header's file (of the header's type), each body variable
 * (a typed value or a contact field, as in quick replies), a URL button's final part, a copy-code
 * button's code; the message as the customer will read it (buttons as text) and Meta's billing note
 * for marketing ones. The server's own schema (`templateFillSchema`) runs before anything is
 * uploaded or sent; the server's field messages land on their fields.
 */
export function TemplateSendDialog({ contact, onClose, onSent }: { contact: ContactForTemplate; onClose: () => void; onSent?: () => void }) {
  const { user } = useSession();
  const templates = useTemplates(contact.serviceId);
  const approved = useMemo(() => (templates.data?.data ?? []).filter((t) => t.status === 'APPROVED'), [templates.data]);
  const [chosenId, setChosenId] = useState('');
  const [parameters, setParameters] = useState<string[]>([]);
  const [header, setHeader] = useState('');
  const [buttonValues, setButtonValues] = useState<string[]>([]);
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const send = useSendTemplate(contact);
  const firstField = useRef<HTMLSelectElement>(null);
  const ids = useId();
  const fileUrl = useMemo(() => (file?.type.startsWith('image/') && typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : null), [file]);
  useEffect(() => () => (fileUrl ? URL.revokeObjectURL(fileUrl) : undefined), [fileUrl]);

  const template = approved.find((t) => t.id === chosenId) ?? approved[0];
  const values = template ? Array.from({ length: template.variableCount }, (_, i) => parameters[i] ?? '') : [];
  const buttons = template ? template.buttons.map((_, i) => buttonValues[i] ?? '') : [];
  const context = {
    contact: { name: contact.name, data: { phoneNumber: contact.data?.phoneNumber ?? null, email: contact.data?.email ?? null } },
    agent: { name: user?.name ?? '' },
  };
  const fields = variableValues(context);
  const filled = (value: string) => fillVariables(value, fields).trim();
  const preview = template ? renderFilledTemplate(template, { parameters: values.map(filled), header: filled(header), buttons: buttons.map(filled) }) : '';
  const media = template && isHeaderMedia(template.headerFormat) ? headerMedia[template.headerFormat] : null;

  const clearError = (path: string) =>
    setErrors((current) => {
      const { [path]: _, ...rest } = current;
      return rest;
    });
  const choose = (id: string) => {
    setChosenId(id);
    setParameters([]);
    setHeader('');
    setButtonValues([]);
    setFile(null);
    setErrors({});
  };
  const setAt = (setter: (update: (current: string[]) => string[]) => void, list: string[], index: number, value: string, path: string) => {
    setter(() => {
      const next = list.slice();
      next[index] = value;
      return next;
    });
    clearError(path);
  };
  const showErrors = (found: { path: string; message: string }[]) => {
    setErrors(Object.fromEntries(found.map((e) => [fieldPath(e.path), e.message])));
    const first = found[0] && fieldPath(found[0].path);
    if (first) document.getElementById(`${ids}-${first}`)?.focus();
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!template) return;
    const input = { parameters: values, header: headerVariableCount(template) ? header : null, buttons };
    const check = templateFillSchema(template, context).safeParse({ ...input, media: file && { mimetype: file.type } });
    if (!check.success) {
      showErrors(check.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })));
      return;
    }
    try {
      await send.mutateAsync({ template: { name: template.name, language: template.language, ...input }, file });
      showToast({ tone: 'success', title: templateSendTexts.sent, message: `${template.name} enviado para ${contact.name}.` });
      onSent?.();
      onClose();
    } catch (error) {
      if (error instanceof ApiError && error.status === 400 && error.details.length) {
        showErrors(error.details);
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
            options={approved.map((t) => ({ value: t.id, label: templateOptionLabel(t) }))}
            value={template.id}
            onChange={(e) => choose(e.target.value)}
            error={nameError}
          />
          {template.headerFormat === 'LOCATION' ? <Alert tone="warning">{templateFillTexts.locationHeader}</Alert> : null}
          {unsupportedButtonKind(template) ? <Alert tone="warning">{templateFillTexts.unsupportedButton(unsupportedButtonKind(template) ?? '')}</Alert> : null}
          {headerVariableCount(template) ? (
            <InputField
              key={`${template.id}-header`}
              id={`${ids}-template.header`}
              label="Variável {{1}} do cabeçalho"
              hint={`Cabeçalho: ${template.header}`}
              value={header}
              maxLength={60}
              onChange={(e) => {
                setHeader(e.target.value);
                clearError('template.header');
              }}
              error={fieldError('template.header')}
            />
          ) : null}
          {media ? (
            <InputField
              key={`${template.id}-file`}
              id={`${ids}-fileId`}
              label={media.label}
              type="file"
              accept={media.accept}
              hint={`Arquivo ${media.types}, enviado junto com o modelo.`}
              onChange={(e) => {
                setFile(e.target.files?.[0] ?? null);
                clearError('fileId');
              }}
              error={fieldError('fileId')}
              className="py-1.5"
            />
          ) : null}
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
              onChange={(e) => setAt(setParameters, values, i, e.target.value, `template.parameters.${i}`)}
              error={fieldError(`template.parameters.${i}`)}
            />
          ))}
          {template.buttons.map((button, i) =>
            buttonValueKind(button) ? (
              <InputField
                // biome-ignore lint/suspicious/noArrayIndexKey: a send names a button by its index
                key={`${template.id}-button-${i}`}
                id={`${ids}-template.buttons.${i}`}
                label={templateButtonLabel(button)}
                hint={button.type === 'URL' ? `O link fica ${button.url.replace(/\{\{\s*1\s*\}\}/, '…')}` : undefined}
                value={buttons[i]}
                maxLength={button.type === 'URL' ? 2000 : 15}
                onChange={(e) => setAt(setButtonValues, buttons, i, e.target.value, `template.buttons.${i}`)}
                error={fieldError(`template.buttons.${i}`)}
              />
            ) : null,
          )}
          <div>
            <p className="mb-1 text-sm font-medium text-fg">Como o cliente vai ler</p>
            <div className="rounded-lg border border-border bg-bg-subtle px-3 py-2">
              {media ? (
                fileUrl ? (
                  <img src={fileUrl} alt={`${media.label}: ${file?.name ?? ''}`} className="mb-2 max-h-40 rounded-md" data-testid="template-preview-media" />
                ) : (
                  <p className="mb-2 text-xs text-fg-muted" data-testid="template-preview-media">
                    {file ? `${media.label}: ${file.name}` : `${media.label}: nenhum arquivo escolhido`}
                  </p>
                )
              ) : null}
              <p className="text-sm whitespace-pre-wrap text-fg" data-testid="template-preview">
                {preview}
              </p>
            </div>
          </div>
          {template.category === 'MARKETING' ? <p className="text-xs text-fg-muted">{marketingBillingNote}</p> : null}
          <div className="flex justify-end gap-2 pt-2">
            <Button variant="outline" onClick={onClose}>
              Cancelar
            </Button>
            <Button type="submit" loading={send.isPending} disabled={template.headerFormat === 'LOCATION' || unsupportedButtonKind(template) !== null}>
              Enviar modelo
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
