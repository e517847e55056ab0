import type { CampaignTemplate } from '#contracts/campaigns.ts';
import { quickReplyVariables } from '#contracts/quick-replies.ts';
import {
  buttonValueKind,
  headerMedia,
  headerVariableCount,
  isHeaderMedia,
  renderFilledTemplate,
  templateFillTexts,
  unsupportedButtonKind,
} from '#contracts/template-fill.ts';
import { marketingBillingNote, type MessageTemplate } from '#contracts/templates.ts';
import { ButtonLink } from '#web/components/ui/button.tsx';
import { InputField, SelectField } from '#web/components/ui/field.tsx';
import { Alert } from '#web/components/ui/misc.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import type { FieldErrors } from '#web/features/campaigns/campaign-form.ts';
import { templateButtonLabel, templateOptionLabel } from '#web/components/template-labels.ts';

export const campaignTemplateTexts = {
  /** Why a template: the one pt-BR sentence on the 24-hour window. */
  why: 'Fora da janela de 24 horas do cliente, a API oficial do WhatsApp só entrega modelos aprovados pela Meta.',
  variablesHint: `Digite o valor ou use ${Object.keys(quickReplyVariables)
    .map((v) => `{{${v}}}`)
    .join(', ')}: cada contato recebe os próprios dados, e quem não tiver o dado (um {{email}} vazio) fica de fora.`,
  everyConnection: 'O modelo precisa estar aprovado, com o mesmo nome, em todas as conexões da API oficial escolhidas.',
  none: 'Nenhum modelo aprovado nesta conexão ainda. Crie ou sincronize os modelos em Modelos de mensagem.',
  loadFailed: 'Não foi possível carregar os modelos de mensagem.',
  /** Only API oficial connections with a template: no text, no opt-out hint (Meta sends the approved text only). */
  asApproved: 'O modelo vai exatamente como a Meta aprovou, sem a instrução de como parar de receber.',
} as const;

/**
 * The template part of 'Nova campanha' (ADR-0227, "Templates"): the approved templates
 * of the first chosen WhatsApp (API oficial) connection and one labelled field per value the chosen
 * one needs, as the inbox's 'Enviar modelo' dialog asks them (its header's `{{1}}`, each body
 * variable, a URL button's final part, a copy-code button's code); a media header's file is the
 * campaign's file, chosen below. The message as the customer reads it keeps the contact fields unfilled.
 */
export function CampaignTemplateFields({
  serviceId,
  templates,
  value,
  errors,
  manyConnections,
  onChoose,
  onChange,
}: {
  serviceId: string;
  templates: { pending: boolean; failed: boolean; approved: MessageTemplate[] };
  value: CampaignTemplate | null;
  errors: FieldErrors;
  /** More than one API oficial connection chosen: the template must be on each. */
  manyConnections: boolean;
  onChoose: (template: MessageTemplate) => void;
  onChange: (value: CampaignTemplate, field: string) => void;
}) {
  if (templates.pending) {
    return (
      <p className="flex items-center gap-2 text-sm text-fg-muted" role="status">
        <Spinner className="size-4 text-brand" /> Carregando modelos...
      </p>
    );
  }
  if (templates.failed) return <Alert tone="danger">{campaignTemplateTexts.loadFailed}</Alert>;
  if (templates.approved.length === 0) {
    return (
      <div className="space-y-2" data-testid="campaign-no-templates">
        <p className="text-sm text-fg-muted">{campaignTemplateTexts.none}</p>
        <ButtonLink to={`/services/${encodeURIComponent(serviceId)}/templates`} variant="outline">
          Ver modelos de mensagem
        </ButtonLink>
        {errors.template ? (
          <p className="text-xs font-medium text-danger" role="alert">
            {errors.template}
          </p>
        ) : null}
      </div>
    );
  }

  const template = value ? templates.approved.find((t) => t.name === value.name && t.language === value.language) : undefined;
  const set = (next: Partial<CampaignTemplate>, field: string) => value && onChange({ ...value, ...next }, field);
  const setAt = (list: 'parameters' | 'buttons', index: number, text: string) => {
    if (!value) return;
    const next = value[list].slice();
    next[index] = text;
    set({ [list]: next }, `template.${list}.${index}`);
  };
  const media = template && isHeaderMedia(template.headerFormat) ? headerMedia[template.headerFormat] : null;

  return (
    <div className="space-y-4 rounded-lg border border-border p-3 sm:p-4" data-testid="campaign-template">
      <SelectField
        id="campaign-template"
        label="Modelo aprovado"
        placeholder="Escolha um modelo"
        options={templates.approved.map((t) => ({ value: t.id, label: templateOptionLabel(t) }))}
        value={template?.id ?? ''}
        onChange={(e) => {
          const chosen = templates.approved.find((t) => t.id === e.target.value);
          if (chosen) onChoose(chosen);
        }}
        error={errors.template}
        hint={manyConnections ? campaignTemplateTexts.everyConnection : undefined}
      />
      {template && value ? (
        <>
          {template.headerFormat === 'LOCATION' ? <Alert tone="warning">{templateFillTexts.locationHeader}</Alert> : null}
          {unsupportedButtonKind(template) ? <Alert tone="warning">{templateFillTexts.unsupportedButton(unsupportedButtonKind(template) ?? '')}</Alert> : null}
          {media ? (
            <p className="text-sm text-fg-muted">
              {media.label}: escolha o arquivo ({media.types}) em Arquivo, abaixo.
            </p>
          ) : null}
          {headerVariableCount(template) ? (
            <InputField
              id="campaign-template.header"
              label="Variável {{1}} do cabeçalho"
              hint={`Cabeçalho: ${template.header}`}
              value={value.header ?? ''}
              maxLength={60}
              onChange={(e) => set({ header: e.target.value }, 'template.header')}
              error={errors['template.header']}
            />
          ) : null}
          {value.parameters.map((parameter, i) => (
            <InputField
              // biome-ignore lint/suspicious/noArrayIndexKey: one field per numbered variable, in order
              key={`${template.id}-${i}`}
              id={`campaign-template.parameters.${i}`}
              label={`Variável {{${i + 1}}}`}
              placeholder={template.examples[i] ? `Exemplo: ${template.examples[i]}` : undefined}
              hint={i === 0 ? campaignTemplateTexts.variablesHint : undefined}
              value={parameter}
              maxLength={1024}
              onChange={(e) => setAt('parameters', i, e.target.value)}
              error={errors[`template.parameters.${i}`]}
            />
          ))}
          {template.buttons.map((button, i) =>
            buttonValueKind(button) ? (
              <InputField
                // biome-ignore lint/suspicious/noArrayIndexKey: a send names a button by its index
                key={`${template.id}-button-${i}`}
                id={`campaign-template.buttons.${i}`}
                label={templateButtonLabel(button)}
                hint={button.type === 'URL' ? `O link fica ${button.url.replace(/\{\{\s*1\s*\}\}/, '…')}` : undefined}
                value={value.buttons[i] ?? ''}
                maxLength={button.type === 'URL' ? 2000 : 15}
                onChange={(e) => setAt('buttons', i, e.target.value)}
                error={errors[`template.buttons.${i}`]}
              />
            ) : null,
          )}
          <div>
            <p className="mb-1 text-sm font-medium text-fg">Como o cliente vai ler</p>
            <p className="rounded-lg border border-border bg-bg-subtle px-3 py-2 text-sm whitespace-pre-wrap text-fg" data-testid="campaign-template-preview">
              {renderFilledTemplate(template, value)}
            </p>
          </div>
          {template.category === 'MARKETING' ? <p className="text-xs text-fg-muted">{marketingBillingNote}</p> : null}
        </>
      ) : null}
    </div>
  );
}
