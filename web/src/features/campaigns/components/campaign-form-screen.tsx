import { type ChangeEvent, type FormEvent, type ReactNode, useState } from 'react';
import { useNavigate } from 'react-router';
import { ArrowLeft, Paperclip, Rocket, ShieldCheck } from 'lucide-react';
import { optOutHintText } from '#contracts/campaigns.ts';
import { quickReplyVariables } from '#contracts/quick-replies.ts';
import { serviceStatusLabels, serviceTypeLabels } from '#contracts/service-labels.ts';
import { headerMedia, isHeaderMedia } from '#contracts/template-fill.ts';
import { useTemplates } from '#web/api/message-templates.ts';
import { Button, ButtonLink } from '#web/components/ui/button.tsx';
import { CheckboxField, FieldShell, InputField, TextareaField } from '#web/components/ui/field.tsx';
import { Alert, Card } from '#web/components/ui/misc.tsx';
import { ApiError } from '#web/lib/api-client.ts';
import { useSession } from '#web/lib/auth.ts';
import { cn } from '#web/lib/cn.ts';
import { reportError } from '#web/lib/errors.ts';
import { showToast } from '#web/lib/notify.ts';
import { useAutomations } from '#web/api/automations.ts';
import { SwitchField } from '#web/components/switch-field.tsx';
import { type CampaignPlan, useCreateCampaign, usePlanCampaign } from '#web/features/campaigns/api/campaigns.ts';
import {
  type CampaignForm,
  checkForm,
  costRows,
  costSummary,
  emptyForm,
  errorsOf,
  type FieldErrors,
  planSummary,
  sendsText,
  templateChoice,
  withServices,
} from '#web/features/campaigns/campaign-form.ts';
import { useConnections } from '#web/api/get-connections.ts';
import { requestUpload, uploadToUrl } from '#web/api/request-upload.ts';
import { AudiencePicker } from './audience-picker.tsx';
import { CampaignTemplateFields, campaignTemplateTexts } from './campaign-template-fields.tsx';

const weekdayNames = ['Dom', 'Seg', 'Ter', 'Qua', 'Qui', 'Sex', 'Sáb'];
/** Monday first, as a Brazilian business reads its week. */
const weekOrder = [1, 2, 3, 4, 5, 6, 0];

const radioClass = 'size-4 accent-brand focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring';

function Section({ title, description, children }: { title: string; description?: ReactNode; children: ReactNode }) {
  return (
    <Card className="space-y-4 p-4 sm:p-6">
      <div>
        <h2 className="text-base font-semibold text-fg">{title}</h2>
        {description ? <p className="mt-0.5 text-sm text-fg-muted">{description}</p> : null}
      </div>
      {children}
    </Card>
  );
}

function Choice({ name, checked, label, onChange }: { name: string; checked: boolean; label: string; onChange: () => void }) {
  return (
    <label className="flex items-center gap-2 text-sm text-fg">
      <input type="radio" name={name} className={radioClass} checked={checked} onChange={onChange} />
      {label}
    </label>
  );
}

const fieldError = (errors: FieldErrors, name: string) => errors[name];

/** The plan's cost of a template campaign: the total and category, the rows by country, and where the figures come from. */
function PlanCost({ cost }: { cost: NonNullable<CampaignPlan['cost']> }) {
  return (
    <div className="space-y-2 text-sm" data-testid="campaign-cost">
      <p className="font-medium text-fg">{costSummary(cost)}</p>
      <p className="text-fg-muted">
        É uma estimativa pela tabela de preços configurada, contando uma mensagem entregue por destinatário da API oficial: contatos pulados, falhas e descontos
        por volume da Meta deixam a conta menor.
      </p>
      <details className="rounded-lg border border-border px-3 py-2">
        <summary className="cursor-pointer font-medium text-fg">Custo por país</summary>
        <div className="mt-2 overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead className="text-xs text-fg-muted">
              <tr>
                <th scope="col" className="py-1 pr-3 font-medium">
                  País
                </th>
                <th scope="col" className="py-1 pr-3 text-right font-medium">
                  Destinatários
                </th>
                <th scope="col" className="py-1 pr-3 text-right font-medium">
                  Por mensagem
                </th>
                <th scope="col" className="py-1 text-right font-medium">
                  Total
                </th>
              </tr>
            </thead>
            <tbody className="text-fg tabular-nums">
              {costRows(cost).map((row) => (
                <tr key={row.key} className="border-t border-border">
                  <td className="py-1 pr-3">{row.country}</td>
                  <td className="py-1 pr-3 text-right">{row.recipients}</td>
                  <td className="py-1 pr-3 text-right whitespace-nowrap">{row.unitPrice}</td>
                  <td className="py-1 text-right whitespace-nowrap">{row.total}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </div>
  );
}

/**
 * 'Nova campanha' (/campaigns/new, admins): one form in sections (name, audience, connections,
 * message, start, sending window, pace, opt-out hint). 'Revisar campanha' asks POST /campaigns/plan
 * and shows its summary; 'Iniciar campanha' creates it (POST /campaigns) and opens its progress.
 * A refusal's messages show on their fields (ADR-0054's pattern with the server's `details`).
 */
export function CampaignFormScreen() {
  const { user } = useSession();
  const navigate = useNavigate();
  const connections = useConnections();
  const automations = useAutomations();
  const planner = usePlanCampaign();
  const create = useCreateCampaign();
  const [form, setForm] = useState<CampaignForm>(emptyForm);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [plan, setPlan] = useState<CampaignPlan | null>(null);
  const [file, setFile] = useState<{ name: string; progress: number | null } | null>(null);
  const services = connections.data?.data ?? [];
  const typeOf = (id: string) => services.find((s) => s.id === id)?.type;
  // The templates listed are the first chosen API oficial connection's; the server checks the others have it too.
  const cloudIds = form.serviceIds.filter((id) => typeOf(id) === 'whatsapp_cloud');
  const templates = useTemplates(cloudIds[0] ?? '', { enabled: cloudIds.length > 0 && form.useTemplate });
  const approved = (templates.data?.data ?? []).filter((t) => t.status === 'APPROVED');
  const chosen = form.template ? approved.find((t) => t.name === form.template?.name && t.language === form.template.language) : undefined;
  const media = form.useTemplate && chosen && isHeaderMedia(chosen.headerFormat) ? headerMedia[chosen.headerFormat] : null;
  const textToo = !form.useTemplate || sendsText(form, typeOf);
  // A file goes with the text, or as a template's media header; one already attached stays shown so it can be removed.
  const fileToo = textToo || media !== null || form.fileId !== null;

  if (!user?.isAdmin) return <Alert tone="info">Só administradores podem criar campanhas.</Alert>;
  const optOutWord = automations.data?.optOut.words[0] ?? 'SAIR';

  /** A change to the form: the plan shown is no longer this form's, and the fields touched lose their messages. */
  const change = (next: Partial<CampaignForm>, ...fields: string[]) => {
    setForm((current) => ({ ...current, ...next }));
    setPlan(null);
    if (fields.length) setErrors((current) => Object.fromEntries(Object.entries(current).filter(([k]) => !fields.includes(k))));
  };

  const showRefusal = (error: unknown) => {
    if (error instanceof ApiError && error.status === 400 && error.details.length) {
      setErrors(errorsOf(error.details));
      showToast({ tone: 'error', title: 'Revise a campanha', message: 'Alguns campos precisam de correção.' });
    } else reportError(error);
  };

  const checked = () => {
    const result = checkForm(form, { typeOf, template: chosen, agent: user.name });
    if (!result.ok) {
      setErrors(result.errors);
      showToast({ tone: 'error', title: 'Revise a campanha', message: 'Alguns campos precisam de correção.' });
      return null;
    }
    setErrors({});
    return result.payload;
  };

  const onReview = async (event: FormEvent) => {
    event.preventDefault();
    const payload = checked();
    if (!payload) return;
    try {
      setPlan(await planner.mutateAsync(payload));
    } catch (error) {
      showRefusal(error);
    }
  };

  const onStart = async () => {
    const payload = checked();
    if (!payload) return;
    try {
      const campaign = await create.mutateAsync(payload);
      showToast({ tone: 'success', title: campaign.status === 'scheduled' ? 'Campanha agendada' : 'Campanha iniciada' });
      navigate(`/campaigns/${campaign.id}`);
    } catch (error) {
      showRefusal(error);
    }
  };

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const picked = event.target.files?.[0];
    event.target.value = '';
    if (!picked) return;
    const serviceId = form.serviceIds[0];
    if (!serviceId) {
      setErrors((current) => ({ ...current, file: 'Escolha uma conexão antes de anexar um arquivo' }));
      return;
    }
    setFile({ name: picked.name, progress: 0 });
    try {
      const mimetype = picked.type || 'application/octet-stream';
      const answer = await requestUpload({ name: picked.name, mimetype, serviceId, length: picked.size });
      await uploadToUrl(answer.urlToUpload, picked, mimetype, (progress) => setFile({ name: picked.name, progress }));
      setFile({ name: picked.name, progress: null });
      change({ fileId: answer.file.id }, 'file', 'text');
    } catch (error) {
      setFile(null);
      if (error instanceof ApiError && error.status === 400 && error.details.length) {
        setErrors((current) => ({ ...current, file: error.details[0]!.message }));
      } else reportError(error);
    }
  };

  const toggleService = (id: string, on: boolean) => {
    const ids = on ? [...form.serviceIds, id] : form.serviceIds.filter((s) => s !== id);
    setForm((current) => withServices(current, ids, typeOf));
    setPlan(null);
    setErrors((current) => Object.fromEntries(Object.entries(current).filter(([k]) => k !== 'serviceIds' && k !== 'audience')));
  };

  const paceField = (name: 'minGapSeconds' | 'maxGapSeconds' | 'dailyLimit' | 'dailyNewChats', label: string, hint?: string) => (
    <InputField
      id={`campaign-pace-${name}`}
      label={label}
      type="number"
      inputMode="numeric"
      min={0}
      value={form[name]}
      onChange={(e) => change({ [name]: e.target.value, paceEdited: true }, `pace.${name}`)}
      error={fieldError(errors, `pace.${name}`)}
      hint={hint}
      required
    />
  );

  return (
    <form onSubmit={(e) => void onReview(e)} noValidate className="space-y-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight text-fg">Nova campanha</h1>
          <p className="mt-1 text-sm text-fg-muted">Revise o resumo antes de iniciar: nada é enviado até você confirmar.</p>
        </div>
        <ButtonLink to="/campaigns" variant="outline">
          <ArrowLeft className="size-4" aria-hidden="true" /> Campanhas
        </ButtonLink>
      </div>

      <Section title="Nome" description="Só a equipe vê o nome; os contatos recebem a mensagem.">
        <InputField
          id="campaign-name"
          label="Nome da campanha"
          placeholder="Ex.: Promoção de Natal"
          maxLength={80}
          value={form.name}
          onChange={(e) => change({ name: e.target.value }, 'name')}
          error={fieldError(errors, 'name')}
          required
        />
      </Section>

      <Section title="Conexões" description="Cada conexão envia para os seus próprios contatos; contatos de outras conexões ficam de fora.">
        <fieldset className="space-y-2" aria-describedby={errors.serviceIds ? 'campaign-services-error' : undefined}>
          <legend className="sr-only">Conexões que enviam</legend>
          {services.length === 0 && !connections.isPending ? <p className="text-sm text-fg-muted">Nenhuma conexão cadastrada. Crie uma em Conexões.</p> : null}
          {services.map((service) => (
            <CheckboxField
              key={service.id}
              id={`campaign-service-${service.id}`}
              label={
                <>
                  <span className="font-medium text-fg">{service.name}</span> · {serviceTypeLabels[service.type] ?? service.type} ·{' '}
                  {serviceStatusLabels[service.status] ?? service.status}
                </>
              }
              checked={form.serviceIds.includes(service.id)}
              onChange={(e) => toggleService(service.id, e.target.checked)}
            />
          ))}
          {errors.serviceIds ? (
            <p id="campaign-services-error" className="text-xs font-medium text-danger" role="alert">
              {errors.serviceIds}
            </p>
          ) : null}
        </fieldset>
      </Section>

      <Section title="Público" description="Os contatos que pediram para não receber campanhas, arquivados ou grupos ficam de fora na hora do envio.">
        <AudiencePicker
          value={{ kind: form.audienceKind, contactIds: form.contactIds, segmentId: form.segmentId }}
          error={fieldError(errors, 'audience')}
          onChange={(audience) => change({ audienceKind: audience.kind, contactIds: audience.contactIds, segmentId: audience.segmentId }, 'audience')}
        />
      </Section>

      <Section title="Mensagem">
        {cloudIds.length > 0 ? (
          <div className="space-y-3">
            <div className="space-y-1">
              <SwitchField
                id="campaign-useTemplate"
                name="Modelo da API oficial"
                label="Usar um modelo aprovado"
                checked={form.useTemplate}
                onChange={(useTemplate) => change({ useTemplate, template: useTemplate ? form.template : null }, 'template', 'text')}
              />
              <p className="text-sm text-fg-muted">{campaignTemplateTexts.why}</p>
            </div>
            {form.useTemplate ? (
              <CampaignTemplateFields
                serviceId={cloudIds[0]!}
                templates={{ pending: templates.isPending, failed: templates.isError, approved }}
                value={form.template}
                errors={errors}
                manyConnections={cloudIds.length > 1}
                onChoose={(template) =>
                  change({ template: templateChoice(template) }, ...Object.keys(errors).filter((k) => k.startsWith('template') || k === 'file'))
                }
                onChange={(template, field) => change({ template }, field, 'template')}
              />
            ) : null}
          </div>
        ) : null}
        {textToo ? (
          <TextareaField
            id="campaign-text"
            label={form.useTemplate ? 'Texto para as outras conexões' : 'Texto da mensagem'}
            rows={5}
            maxLength={4096}
            value={form.text}
            onChange={(e) => change({ text: e.target.value }, 'text')}
            error={fieldError(errors, 'text')}
            hint={`${form.useTemplate ? 'Enviado pelas conexões do WhatsApp (QR) e do Telegram, que não enviam o modelo. ' : ''}Personalize com ${Object.entries(
              quickReplyVariables,
            )
              .map(([name, what]) => `{{${name}}} (${what.toLowerCase()})`)
              .join(', ')}.`}
          />
        ) : null}
        {fileToo ? (
          <FieldShell
            id="campaign-file"
            label={media ? media.label : 'Arquivo (opcional)'}
            error={fieldError(errors, 'file')}
            hint={
              media
                ? `Arquivo ${media.types} do cabeçalho do modelo${textToo ? '; as outras conexões o enviam com o texto' : ''}.`
                : 'Imagem, vídeo, áudio ou documento enviado com o texto.'
            }
          >
            <div className="flex flex-wrap items-center gap-2">
              {/* The native control is hidden: its button text would be the browser's language, not pt-BR. */}
              <input
                id="campaign-file"
                type="file"
                accept={media?.accept}
                className="peer sr-only"
                aria-invalid={errors.file ? true : undefined}
                aria-describedby={errors.file ? 'campaign-file-error' : 'campaign-file-hint'}
                onChange={(e) => void onFile(e)}
              />
              <label
                htmlFor="campaign-file"
                className="inline-flex h-9 cursor-pointer items-center gap-2 rounded-lg border border-border-strong bg-surface px-3 text-sm font-medium text-fg hover:bg-surface-2 peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-ring"
              >
                <Paperclip className="size-4" aria-hidden="true" /> {file ? 'Trocar arquivo' : 'Escolher arquivo'}
              </label>
              {file ? null : <span className="text-sm text-fg-muted">Nenhum arquivo</span>}
              {file ? (
                <span className="inline-flex min-w-0 items-center gap-1 text-sm text-fg">
                  <span className="truncate">{file.name}</span>
                  {file.progress !== null ? ` (${Math.round(file.progress * 100)}%)` : ''}
                  <Button
                    variant="ghost"
                    size="sm"
                    onClick={() => {
                      setFile(null);
                      change({ fileId: null }, 'file');
                    }}
                  >
                    Remover
                  </Button>
                </span>
              ) : null}
            </div>
          </FieldShell>
        ) : null}
        {textToo ? null : <p className="text-sm text-fg-muted">{campaignTemplateTexts.asApproved}</p>}
        {textToo ? (
          <SwitchField
            id="campaign-optOutHint"
            name="Instrução de descadastro"
            label="Incluir como parar de receber"
            checked={form.optOutHint}
            onChange={(optOutHint) => change({ optOutHint })}
          />
        ) : null}
        {textToo && form.optOutHint ? (
          <p className="rounded-lg bg-bg-subtle px-3 py-2 text-sm text-fg-muted">
            Ao final de cada mensagem{form.useTemplate ? ' de texto (o modelo vai como a Meta aprovou)' : ''}:{' '}
            <q className="text-fg">{optOutHintText(optOutWord)}</q>
          </p>
        ) : null}
      </Section>

      <Section title="Quando">
        <fieldset className="space-y-3">
          <legend className="sr-only">Início</legend>
          <div className="flex flex-wrap gap-4">
            <Choice name="campaign-start" checked={form.startMode === 'now'} label="Começar agora" onChange={() => change({ startMode: 'now' }, 'startAt')} />
            <Choice name="campaign-start" checked={form.startMode === 'later'} label="Agendar" onChange={() => change({ startMode: 'later' }, 'startAt')} />
          </div>
          {form.startMode === 'later' ? (
            <div className="grid gap-3 sm:grid-cols-2">
              <InputField
                id="campaign-startDate"
                label="Data de início"
                type="date"
                value={form.startDate}
                onChange={(e) => change({ startDate: e.target.value }, 'startAt')}
                error={fieldError(errors, 'startAt')}
                required
              />
              <InputField
                id="campaign-startTime"
                label="Hora de início"
                type="time"
                value={form.startTime}
                onChange={(e) => change({ startTime: e.target.value }, 'startAt')}
                required
              />
            </div>
          ) : null}
        </fieldset>
        <fieldset className="space-y-3">
          <legend className="text-sm font-medium text-fg">Janela de envio</legend>
          <div className="flex flex-wrap gap-4">
            <Choice
              name="campaign-window"
              checked={form.windowKind === 'business-hours'}
              label="No horário de atendimento"
              onChange={() => change({ windowKind: 'business-hours' })}
            />
            <Choice
              name="campaign-window"
              checked={form.windowKind === 'hours'}
              label="Em horários próprios"
              onChange={() => change({ windowKind: 'hours' })}
            />
          </div>
          {form.windowKind === 'hours' ? (
            <div className="space-y-3">
              <div className="grid grid-cols-2 gap-3 sm:max-w-md">
                <InputField
                  id="campaign-window-start"
                  label="Das"
                  type="time"
                  value={form.windowStart}
                  onChange={(e) => change({ windowStart: e.target.value }, 'window.start', 'window.end')}
                  error={fieldError(errors, 'window.start')}
                />
                <InputField
                  id="campaign-window-end"
                  label="Até"
                  type="time"
                  value={form.windowEnd}
                  onChange={(e) => change({ windowEnd: e.target.value }, 'window.end')}
                  error={fieldError(errors, 'window.end')}
                  hint="00:00 é meia-noite, no fim do dia."
                />
              </div>
              <fieldset aria-describedby={errors['window.weekdays'] ? 'campaign-weekdays-error' : undefined}>
                <legend className="mb-1.5 text-sm font-medium text-fg">Dias da semana</legend>
                <div className="flex flex-wrap gap-2">
                  {weekOrder.map((day) => {
                    const on = form.weekdays.includes(day);
                    return (
                      <label
                        key={day}
                        className={cn(
                          'flex h-9 min-w-12 cursor-pointer items-center justify-center rounded-lg border px-2 text-sm has-focus-visible:outline-2 has-focus-visible:outline-ring',
                          on ? 'border-brand bg-brand-soft text-brand-soft-fg' : 'border-border-strong text-fg-muted',
                        )}
                      >
                        <input
                          type="checkbox"
                          className="sr-only"
                          checked={on}
                          onChange={(e) =>
                            change({ weekdays: e.target.checked ? [...form.weekdays, day] : form.weekdays.filter((d) => d !== day) }, 'window.weekdays')
                          }
                        />
                        {weekdayNames[day]}
                      </label>
                    );
                  })}
                </div>
                {errors['window.weekdays'] ? (
                  <p id="campaign-weekdays-error" className="mt-1.5 text-xs font-medium text-danger" role="alert">
                    {errors['window.weekdays']}
                  </p>
                ) : null}
              </fieldset>
            </div>
          ) : (
            <p className="text-sm text-fg-muted">Envia só quando a empresa está aberta, no fuso e nos turnos de Horário de atendimento.</p>
          )}
        </fieldset>
      </Section>

      <Section
        title="Ritmo de envio"
        description={
          <>
            <ShieldCheck className="mr-1 inline size-4 align-text-bottom text-brand" aria-hidden="true" />O WhatsApp bloqueia números que enviam muitas
            mensagens seguidas, sempre no mesmo ritmo, ou para muita gente que nunca conversou com a empresa. Um intervalo aleatório entre os envios e limites
            por dia deixam a campanha com jeito de conversa e protegem o seu número. Os valores sugeridos seguem o tipo das conexões escolhidas.
          </>
        }
      >
        <div className="grid gap-3 sm:grid-cols-2">
          {paceField('minGapSeconds', 'Intervalo mínimo (segundos)')}
          {paceField('maxGapSeconds', 'Intervalo máximo (segundos)')}
          {paceField('dailyLimit', 'Mensagens por dia, por número')}
          {paceField('dailyNewChats', 'Conversas novas por dia', 'Primeiras mensagens para quem nunca escreveu para o número.')}
        </div>
      </Section>

      <Card className="space-y-3 p-4 sm:p-6" aria-live="polite">
        {plan ? (
          <>
            <h2 className="text-base font-semibold text-fg">Resumo</h2>
            <p className="text-sm text-fg" data-testid="campaign-plan">
              {planSummary(plan)}
            </p>
            {plan.cost ? <PlanCost cost={plan.cost} /> : null}
          </>
        ) : (
          <p className="text-sm text-fg-muted">Revise a campanha para ver quantos contatos a recebem e quando ela deve terminar.</p>
        )}
        <div className="flex flex-wrap justify-end gap-2">
          <Button type="submit" variant={plan ? 'outline' : 'primary'} loading={planner.isPending}>
            {plan ? 'Revisar de novo' : 'Revisar campanha'}
          </Button>
          {plan ? (
            <Button onClick={() => void onStart()} loading={create.isPending} disabled={plan.recipients === 0}>
              <Rocket className="size-4" aria-hidden="true" /> Iniciar campanha
            </Button>
          ) : null}
        </div>
      </Card>
    </form>
  );
}
