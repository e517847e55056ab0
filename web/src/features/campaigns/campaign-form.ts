/**
 * The 'Nova campanha' form's state and its mapping to the API's `CampaignPayload`: inputs hold
 * strings (numbers typed, a date and a time), the pace follows the chosen connections' types until
 * it is edited, and field messages (the schema's or the server's `details`) are keyed by the field
 * they show on. The plan's summary ('N destinatários, ...') is written here too.
 */
import { type CampaignPace, type CampaignPayload, type CampaignStatus, type CampaignTemplate, campaignPayload, campaignTexts } from '#contracts/campaigns.ts';
import type { QuickReplyContext } from '#contracts/quick-replies.ts';
import type { ServiceType } from '#contracts/service-labels.ts';
import { headerVariableCount, templateFillSchema } from '#contracts/template-fill.ts';
import { type MessageTemplate, templateCategoryLabels } from '#contracts/templates.ts';
import { formatDateTime } from '#web/lib/format.ts';
import type { CampaignCost, CampaignPlan } from './api/campaigns.ts';

export interface CampaignForm {
  name: string;
  audienceKind: 'contacts' | 'segment';
  contactIds: string[];
  segmentId: string;
  serviceIds: string[];
  text: string;
  fileId: string | null;
  startMode: 'now' | 'later';
  /** yyyy-MM-dd and HH:mm in the browser's zone. */
  startDate: string;
  startTime: string;
  windowKind: 'business-hours' | 'hours';
  windowStart: string;
  /** '00:00' is midnight at the end of the day (a time input cannot hold '24:00'). */
  windowEnd: string;
  weekdays: number[];
  minGapSeconds: string;
  maxGapSeconds: string;
  dailyLimit: string;
  dailyNewChats: string;
  /** False while the pace is the chosen connections' default (it then follows them). */
  paceEdited: boolean;
  optOutHint: boolean;
  /** 'Usar um modelo aprovado': the WhatsApp (API oficial) connections send `template` instead of the text. */
  useTemplate: boolean;
  /** The approved template chosen and the values typed for it (one per body variable and button; the header's null without a `{{1}}`). */
  template: CampaignTemplate | null;
}

/** Answers a connection's type by its id (the connections the form lists). */
export type TypeOf = (id: string) => ServiceType | undefined;

/** The pace that keeps each kind of number safe (ADR-0227). */
const paceByType: Record<ServiceType, CampaignPace> = {
  // A number paired by QR is banned for bursts and for many first messages: a person's rhythm.
  whatsapp: { minGapSeconds: 20, maxGapSeconds: 60, dailyLimit: 200, dailyNewChats: 30 },
  // The official API's limit is its daily tier of business-initiated conversations, not a rhythm.
  whatsapp_cloud: { minGapSeconds: 1, maxGapSeconds: 3, dailyLimit: 1000, dailyNewChats: 250 },
  telegram: { minGapSeconds: 20, maxGapSeconds: 60, dailyLimit: 200, dailyNewChats: 30 },
};

/** The default pace for the chosen connections' types: the most careful of them (one pace serves every number). */
export function defaultPace(types: ServiceType[]): CampaignPace {
  const paces = (types.length ? types : ['whatsapp' as const]).map((t) => paceByType[t] ?? paceByType.whatsapp);
  return {
    minGapSeconds: Math.max(...paces.map((p) => p.minGapSeconds)),
    maxGapSeconds: Math.max(...paces.map((p) => p.maxGapSeconds)),
    dailyLimit: Math.min(...paces.map((p) => p.dailyLimit)),
    dailyNewChats: Math.min(...paces.map((p) => p.dailyNewChats)),
  };
}

const paceFields = (pace: CampaignPace) => ({
  minGapSeconds: String(pace.minGapSeconds),
  maxGapSeconds: String(pace.maxGapSeconds),
  dailyLimit: String(pace.dailyLimit),
  dailyNewChats: String(pace.dailyNewChats),
});

/** The form as it opens: business hours, start now, the opt-out hint on. */
export function emptyForm(): CampaignForm {
  return {
    name: '',
    audienceKind: 'contacts',
    contactIds: [],
    segmentId: '',
    serviceIds: [],
    text: '',
    fileId: null,
    startMode: 'now',
    startDate: '',
    startTime: '',
    windowKind: 'business-hours',
    windowStart: '08:00',
    windowEnd: '18:00',
    weekdays: [1, 2, 3, 4, 5],
    ...paceFields(defaultPace([])),
    paceEdited: false,
    optOutHint: true,
    useTemplate: false,
    template: null,
  };
}

/** Whether the chosen connections include one of the WhatsApp API oficial (the only ones that send templates). */
export const sendsTemplates = (form: Pick<CampaignForm, 'serviceIds'>, typeOf: TypeOf) => form.serviceIds.some((id) => typeOf(id) === 'whatsapp_cloud');

/** Whether a chosen connection is not of the API oficial: it sends the text, not the template. */
export const sendsText = (form: Pick<CampaignForm, 'serviceIds'>, typeOf: TypeOf) => form.serviceIds.some((id) => typeOf(id) !== 'whatsapp_cloud');

/** A template just chosen, with one empty value per body variable, text-header `{{1}}` and button. */
export function templateChoice(template: MessageTemplate): CampaignTemplate {
  return {
    name: template.name,
    language: template.language,
    parameters: Array.from({ length: template.variableCount }, () => ''),
    header: headerVariableCount(template) ? '' : null,
    buttons: template.buttons.map(() => ''),
  };
}

/** The connections chosen; the pace follows their types unless the person edited it. */
export function withServices(form: CampaignForm, serviceIds: string[], typeOf: TypeOf): CampaignForm {
  const next = { ...form, serviceIds };
  // Without a connection of the API oficial nothing could send the template: it goes with them.
  if (!sendsTemplates(next, typeOf)) Object.assign(next, { useTemplate: false, template: null });
  if (form.paceEdited) return next;
  const types = serviceIds.map(typeOf).filter((t): t is ServiceType => t !== undefined);
  return { ...next, ...paceFields(defaultPace(types)) };
}

/** A typed number, or NaN for a blank one (the schema then says the field is required). */
const numberOf = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));

/** The local date and time as an ISO instant; the text as typed when it is no date (the schema refuses it). */
function startAtOf(form: CampaignForm): string | null {
  if (form.startMode === 'now') return null;
  const at = new Date(`${form.startDate}T${form.startTime}`);
  return Number.isNaN(at.getTime()) ? `${form.startDate} ${form.startTime}`.trim() : at.toISOString();
}

/**
 * The form as the API's payload. With a template, the text goes only when a chosen connection is
 * not of the API oficial (`typeOf` unknown counts as one): the others send the template alone.
 */
export function toPayload(form: CampaignForm, typeOf: TypeOf = () => undefined): CampaignPayload {
  const template = form.useTemplate && form.template ? form.template : undefined;
  return {
    name: form.name,
    audience: form.audienceKind === 'segment' ? { kind: 'segment', segmentId: form.segmentId } : { kind: 'contacts', contactIds: form.contactIds },
    serviceIds: form.serviceIds,
    message: template ? { text: sendsText(form, typeOf) ? form.text : '', fileId: form.fileId, template } : { text: form.text, fileId: form.fileId },
    startAt: startAtOf(form),
    window:
      form.windowKind === 'business-hours'
        ? { kind: 'business-hours' }
        : { kind: 'hours', start: form.windowStart, end: form.windowEnd === '00:00' ? '24:00' : form.windowEnd, weekdays: form.weekdays },
    pace: {
      minGapSeconds: numberOf(form.minGapSeconds),
      maxGapSeconds: numberOf(form.maxGapSeconds),
      dailyLimit: numberOf(form.dailyLimit),
      dailyNewChats: numberOf(form.dailyNewChats),
    },
    optOutHint: form.optOutHint,
  };
}

/** Field messages by the field they show on: 'name', 'audience', 'serviceIds', 'text', 'startAt', 'window.end', 'pace.dailyLimit'... */
export type FieldErrors = Record<string, string>;

/**
 * The field a payload path shows on: the audience's and the message's inner paths on their one
 * field, a template value on its own ('template.parameters.0', 'template.header', 'template.buttons.1'),
 * anything else of the template on its choice ('template').
 */
export function fieldOf(path: string): string {
  const [head, second, part, index] = path.split('.');
  if (head === 'audience') return 'audience';
  if (head === 'message' && second === 'template') {
    if (part === 'header') return 'template.header';
    return (part === 'parameters' || part === 'buttons') && index !== undefined ? `template.${part}.${index}` : 'template';
  }
  if (head === 'message') return second === 'fileId' ? 'file' : 'text';
  if ((head === 'window' || head === 'pace') && second) return `${head}.${second}`;
  return head ?? '';
}

/** The first message per field, from the server's `details` or the schema's issues. */
export function errorsOf(details: { path: string; message: string }[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const d of details) errors[fieldOf(d.path)] ??= d.message;
  return errors;
}

/** The contact the server checks a campaign's template values with: every field filled (shared/domain/campaigns/plan-campaign.ts). */
const sampleContact = (agent: string): QuickReplyContext => ({
  contact: { name: 'Maria Exemplo', data: { phoneNumber: '5511999999999', email: 'maria@exemplo.com.br' } },
  agent: { name: agent },
});

/** What the form knows beside its state: the connections' types, and the chosen template once its connection's list is loaded. */
export interface FormContext {
  typeOf?: TypeOf;
  template?: MessageTemplate;
  agent?: string;
}

const chooseTemplateText = 'Escolha um dos modelos aprovados';

/** The template rules the server checks when it knows the connections (plan-campaign.ts), as field messages. */
function templateIssues(form: CampaignForm, { typeOf = () => undefined, template, agent = '' }: FormContext): { path: string; message: string }[] {
  if (!form.useTemplate) return [];
  if (!form.template) return [{ path: 'message.template.name', message: chooseTemplateText }];
  const issues: { path: string; message: string }[] = [];
  if (sendsText(form, typeOf) && !form.text.trim() && !form.fileId) issues.push({ path: 'message.text', message: campaignTexts.textForOtherConnections });
  if (!template) return issues;
  const filled = templateFillSchema(template, sampleContact(agent)).safeParse({ ...form.template, media: null });
  // The header's file is checked by the server, which knows its type.
  for (const issue of filled.success ? [] : filled.error.issues) {
    if (issue.path[0] !== 'fileId') issues.push({ path: ['message', ...issue.path].join('.'), message: issue.message });
  }
  return issues;
}

/** The schema's verdict on the form, then the template's rules: the payload, or its field messages. */
export function checkForm(form: CampaignForm, context: FormContext = {}): { ok: true; payload: CampaignPayload } | { ok: false; errors: FieldErrors } {
  const parsed = campaignPayload.safeParse(toPayload(form, context.typeOf));
  const issues = [...(parsed.success ? [] : parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }))), ...templateIssues(form, context)]
    // With 'Usar um modelo aprovado' on and none chosen yet, the choice is what is missing, not the text.
    .filter((issue) => !(form.useTemplate && issue.message === campaignTexts.noMessage));
  if (parsed.success && issues.length === 0) return { ok: true, payload: parsed.data };
  return { ok: false, errors: errorsOf(issues) };
}

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('pt-BR')} ${n === 1 ? one : many}`;

/** What the plan says before starting: 'N destinatários, M ficam de fora, K primeiras mensagens, término estimado dd/MM/yyyy HH:mm'. */
export function planSummary(plan: CampaignPlan): string {
  const counts = [
    plural(plan.recipients, 'destinatário', 'destinatários'),
    `${plan.leftOut.toLocaleString('pt-BR')} ${plan.leftOut === 1 ? 'fica' : 'ficam'} de fora`,
    plural(plan.firstMessages, 'primeira mensagem', 'primeiras mensagens'),
  ].join(', ');
  if (plan.recipients === 0) return `${counts}: nenhum contato receberia esta campanha.`;
  if (plan.estimatedFinishAt === null) {
    return `${counts}. Sem término estimado: alguns destinatários nunca receberiam a mensagem com estas regras (permita conversas novas por dia ou abra mais a janela de envio).`;
  }
  return `${counts}, término estimado ${formatDateTime(plan.estimatedFinishAt)}`;
}

const usd = (value: number) => `US$ ${value.toLocaleString('pt-BR', { minimumFractionDigits: 2, maximumFractionDigits: 4 })}`;

/** 'Custo estimado na Meta: US$ 6,25 (categoria: Marketing)'. */
export const costSummary = (cost: CampaignCost) => `Custo estimado na Meta: ${usd(cost.total)} (categoria: ${templateCategoryLabels[cost.category]})`;

const regionNames = typeof Intl.DisplayNames === 'function' ? new Intl.DisplayNames(['pt-BR'], { type: 'region' }) : null;

/** The cost's rows by country, in pt-BR: the country's name, recipients, the price of one and the total. */
export function costRows(cost: CampaignCost) {
  return cost.byCountry.map((row) => ({
    key: row.country ?? 'none',
    country: `${row.country ? (regionNames?.of(row.country) ?? row.country) : 'País não identificado'}${row.defaultRate ? ' (preço padrão)' : ''}`,
    recipients: row.recipients.toLocaleString('pt-BR'),
    unitPrice: usd(row.unitPrice),
    total: usd(row.total),
  }));
}

/** A campaign's status in pt-BR, as the list and the progress screen show it. */
export const campaignStatusLabels: Record<CampaignStatus, string> = {
  preparing: 'Preparando',
  scheduled: 'Agendada',
  running: 'Enviando',
  paused: 'Pausada',
  cancelled: 'Cancelada',
  finished: 'Concluída',
};
