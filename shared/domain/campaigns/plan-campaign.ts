/**
 * Planning, creating and preparing a campaign (ADR-0227): its audience read and split
 * into one lane per connection (each contact is sent from its own connection; contacts of
 * connections the campaign does not use, and groups, are left out), known contacts ahead of first
 * messages, and the estimated finish from the lanes' rules. Recipients are written first, then the
 * lanes with the campaign's start in one transaction, so a lane never exists without its
 * recipients: at once for a hand-picked list (up to 1,000), in the background for a segment (any
 * size: its filter frozen at creation, its members read from the contact directory and written by
 * the campaigns' poller). Admins only.
 */
import { type Campaign, type CampaignAudience, type CampaignPayload, type CampaignWindow, type CampaignPace, campaignTexts } from '#contracts/campaigns.ts';
import { errorTexts } from '#contracts/errors.ts';
import { uploadKindOf } from '#contracts/files.ts';
import type { Where } from '#contracts/list-query.ts';
import { defaultTemplatePrices, type TemplatePrices } from '#contracts/template-prices.ts';
import { isHeaderMedia } from '#contracts/template-fill.ts';
import { type MessageTemplate, templateTexts } from '#contracts/templates.ts';
import {
  audienceContacts,
  campaignItem,
  type CampaignItem,
  campaignPreparedStep,
  getCampaignItem,
  laneItem,
  type LaneItem,
  preparingCampaignsOf,
  putRecipients,
  recipientItem,
} from '#db/campaigns.ts';
import { getFileItem } from '#db/files.ts';
import { accountServices, getServiceItem } from '#db/services.ts';
import { putNewStep, refusedBy, writeTogether } from '#db/transaction.ts';
import { accountBusinessHours } from '../business-hours/settings.ts';
import { contactDirectory } from '../contacts/contact-directory.ts';
import { contactListRules } from '../contacts/contacts.ts';
import { readContactSnapshot } from '../contacts/contact-snapshot.ts';
import { getSegment } from '../contacts/segments.ts';
import { fail } from '../errors.ts';
import type { Ports } from '../ports.ts';
import type { AccountSession } from '../session.ts';
import { campaignTemplateOf, fillCampaignTemplate, sendsTemplates } from './campaign-template.ts';
import { campaignSchedule, estimateLaneFinish, everSendable } from './lane-clock.ts';
import { presentCampaign } from './present-campaign.ts';
import { type CampaignCost, templateCampaignCost } from './template-cost.ts';

const invalidField = (path: string, message: string) => fail.invalid(errorTexts.invalidParams, [{ path, message }]);

/** What the wizard shows before starting: who receives it, who is left out, and when it should end. */
export interface CampaignPlanAnswer {
  recipients: number;
  /** Contacts of connections the campaign does not use, groups, and ids not found. */
  leftOut: number;
  /** Of the recipients, first messages to people who never wrote (what the new-chat limit paces). */
  firstMessages: number;
  /** Null when some recipients could never be sent at the campaign's rules (no new chats allowed, a window that never opens). */
  estimatedFinishAt: string | null;
  startAt: string;
  /** What Meta should charge for the templates of the API oficial lanes (USD, an upper bound); null without a template. */
  cost: CampaignCost | null;
}

/** What a campaign needs of a contact of its audience. */
interface Member {
  id: string;
  serviceId: string;
  group: boolean;
  lastInboundAt: string | null | undefined;
  phoneNumber: string | null | undefined;
}

interface Lanes {
  lanes: Map<string, { known: Member[]; fresh: Member[] }>;
  recipients: number;
  firstMessages: number;
}

/** Splits an audience into lanes: contacts of the campaign's connections, known ones first. */
function lanesOf(members: Member[], serviceIds: string[]): Lanes {
  const lanes = new Map(serviceIds.map((id) => [id, { known: [] as Member[], fresh: [] as Member[] }]));
  let recipients = 0;
  let firstMessages = 0;
  for (const member of members) {
    const lane = lanes.get(member.serviceId);
    if (!lane || member.group) continue;
    if (member.lastInboundAt) lane.known.push(member);
    else {
      lane.fresh.push(member);
      firstMessages++;
    }
    recipients++;
  }
  return { lanes, recipients, firstMessages };
}

/** The contacts a list query's `where` matches now, from the account's contact directory. */
async function segmentMembers(ports: Ports, accountId: string, where: Where): Promise<Member[]> {
  const contacts = await contactDirectory.matchingContacts(
    ports.table,
    accountId,
    () => accountServices(ports.table, accountId),
    { where, order: contactListRules.defaultOrder ?? [] },
    () => readContactSnapshot(ports.storage, accountId),
  );
  return contacts.map((c) => ({
    id: c.id,
    serviceId: c.serviceId,
    group: c.type === 'group',
    lastInboundAt: c.lastInboundAt,
    phoneNumber: c.data.phoneNumber,
  }));
}

async function audienceOf(ports: Ports, session: AccountSession, audience: CampaignAudience): Promise<{ members: Member[]; asked: number; where?: Where }> {
  if (audience.kind === 'contacts') {
    const found = await audienceContacts(ports.table, session.accountId, audience.contactIds);
    return {
      members: found.map((c) => ({
        id: c.id,
        serviceId: c.serviceId,
        group: c.contactType !== 'user',
        lastInboundAt: c.lastInboundAt,
        phoneNumber: c.phoneNumber,
      })),
      asked: audience.contactIds.length,
    };
  }
  const segment = await getSegment(ports, session, audience.segmentId).catch((error: unknown) => {
    if (error instanceof Error && 'kind' in error && error.kind === 'notFound') throw invalidField('audience.segmentId', 'Segmento não encontrado');
    throw error;
  });
  const members = await segmentMembers(ports, session.accountId, segment.where);
  return { members, asked: members.length, where: segment.where };
}

/** When the last recipient would go, each lane from `startAt` at the campaign's rules; null when some never could. */
async function estimate(
  ports: Ports,
  accountId: string,
  plan: Lanes,
  rules: { window: CampaignWindow; pace: CampaignPace },
  startAt: number,
): Promise<string | null> {
  const { hours } = await accountBusinessHours(ports, accountId);
  const schedule = campaignSchedule(rules.window, hours);
  let finish: number | null = startAt;
  for (const lane of plan.lanes.values()) {
    // First messages a pace without new chats never sends are skipped when their turn comes, not waited for.
    const fresh = everSendable(rules.pace, true) ? lane.fresh.length : 0;
    const end = estimateLaneFinish(schedule, rules.pace, { known: lane.known.length, fresh }, startAt);
    finish = end === null || finish === null ? null : Math.max(finish, end);
  }
  return plan.recipients === 0 || finish === null ? null : new Date(finish).toISOString();
}

/**
 * The campaign's template on each chosen connection of the API oficial: stored there, approved, and
 * its values matching its components (filled for a sample contact with every field, so a value made
 * of `{{email}}` passes here and only a contact without an e-mail is skipped when its turn comes).
 */
async function checkedTemplates(
  ports: Ports,
  session: AccountSession,
  payload: CampaignPayload,
  services: { id: string; templates: boolean }[],
  file: { mimetype: string } | null,
): Promise<Map<string, MessageTemplate>> {
  const found = new Map<string, MessageTemplate>();
  const wanted = payload.message.template;
  const others = services.some((s) => !s.templates);
  if (!wanted) return found;
  if (!services.some((s) => s.templates)) throw invalidField('message.template.name', campaignTexts.templateWithoutCloud);
  if (others && !payload.message.text.trim() && !payload.message.fileId) throw invalidField('message.text', campaignTexts.textForOtherConnections);
  for (const service of services.filter((s) => s.templates)) {
    const template = await campaignTemplateOf(ports, session.accountId, service.id, wanted);
    if (!template) throw invalidField('message.template.name', templateTexts.templateNotFound);
    if (template.status !== 'APPROVED') throw invalidField('message.template.name', templateTexts.templateNotApproved(template.status));
    const sample = {
      contact: { name: 'Maria Exemplo', data: { phoneNumber: '5511999999999', email: 'maria@exemplo.com.br' } },
      agent: { name: session.user.name },
    };
    // The file is a media header's; beside other connections, a template without one leaves it to their text.
    const filled = fillCampaignTemplate(template, wanted, sample, isHeaderMedia(template.headerFormat) || !others ? file : null);
    if (!filled.ok) throw fail.invalid(errorTexts.invalidParams, filled.issues);
    found.set(service.id, template);
  }
  return found;
}

async function checked(ports: Ports, session: AccountSession, payload: CampaignPayload) {
  if (!session.user.isAdmin) throw fail.forbidden();
  const now = ports.clock().getTime();
  const startAt = payload.startAt ? Date.parse(payload.startAt) : now;
  if (startAt < now - 60_000) throw invalidField('startAt', 'Escolha um horário de início no futuro');
  const services: { id: string; templates: boolean }[] = [];
  for (const [i, serviceId] of payload.serviceIds.entries()) {
    const service = await getServiceItem(ports.table, session.accountId, serviceId);
    if (!service) throw invalidField(`serviceIds.${i}`, 'Conexão não encontrada');
    services.push({ id: serviceId, templates: Boolean(payload.message.template) && sendsTemplates(ports, service) });
  }
  let file: { mimetype: string } | null = null;
  if (payload.message.fileId) {
    const record = await getFileItem(ports.table, session.accountId, payload.message.fileId);
    const stored = record ? await ports.storage.head(record.objectKey) : undefined;
    const kind = record ? uploadKindOf(record.mimetype) : undefined;
    if (!record || !stored || !kind || stored.size === 0 || stored.size !== record.size) throw fail.invalid(errorTexts.fileNotUploaded);
    file = { mimetype: record.mimetype };
  }
  // Without a template every lane sends the text (or the file): the schema asked for one of them.
  const templates = await checkedTemplates(ports, session, payload, services, file);
  return { startAt, templates };
}

/**
 * The cost of the template lanes' recipients; null without a template lane. One category for all:
 * the first connection's template's (a template of one name, synced from one business account, has one).
 */
function costOf(plan: Lanes, templates: Map<string, MessageTemplate>, prices: TemplatePrices): CampaignCost | null {
  const [first] = templates.values();
  if (!first) return null;
  const phones = [...templates.keys()].flatMap((serviceId) => {
    const lane = plan.lanes.get(serviceId);
    return [...(lane?.known ?? []), ...(lane?.fresh ?? [])].map((m) => m.phoneNumber);
  });
  return templateCampaignCost(phones, first.category, prices);
}

async function planOf(ports: Ports, session: AccountSession, payload: CampaignPayload, prices: TemplatePrices = defaultTemplatePrices) {
  const { startAt, templates } = await checked(ports, session, payload);
  const audience = await audienceOf(ports, session, payload.audience);
  const plan = lanesOf(audience.members, payload.serviceIds);
  const answer: CampaignPlanAnswer = {
    recipients: plan.recipients,
    leftOut: audience.asked - plan.recipients,
    firstMessages: plan.firstMessages,
    estimatedFinishAt: await estimate(ports, session.accountId, plan, payload, startAt),
    startAt: new Date(startAt).toISOString(),
    cost: costOf(plan, templates, prices),
  };
  return { answer, plan, where: audience.where };
}

/** `POST /campaigns/plan`: the wizard's summary before starting, the templates' cost at the deployment's `prices`; nothing is written. */
export async function planCampaign(ports: Ports, session: AccountSession, payload: CampaignPayload, prices?: TemplatePrices): Promise<CampaignPlanAnswer> {
  return (await planOf(ports, session, payload, prices)).answer;
}

/** The lanes of a campaign whose recipients are written, each due at the start. */
function laneItems(campaign: Pick<CampaignItem, 'accountId' | 'id' | 'startAt'>, plan: Lanes): LaneItem[] {
  return [...plan.lanes].map(([serviceId, lane]) => {
    const recipients = lane.known.length + lane.fresh.length;
    return laneItem({
      accountId: campaign.accountId,
      campaignId: campaign.id,
      serviceId,
      round: 0,
      cursor: null,
      nextAt: recipients > 0 ? campaign.startAt : null,
      day: null,
      inFlight: null,
      finished: recipients === 0,
      recipients,
    });
  });
}

async function writeRecipients(ports: Ports, campaign: Pick<CampaignItem, 'accountId' | 'id'>, plan: Lanes): Promise<void> {
  for (const [serviceId, lane] of plan.lanes) {
    const items = [...lane.known.map((m) => ({ m, fresh: false })), ...lane.fresh.map((m) => ({ m, fresh: true }))].map(({ m, fresh }) =>
      recipientItem({ accountId: campaign.accountId, campaignId: campaign.id, serviceId, contactId: m.id, fresh }),
    );
    await putRecipients(ports.table, items);
  }
}

const startStatus = (startAt: string, now: string): 'scheduled' | 'running' => (Date.parse(startAt) > Date.parse(now) ? 'scheduled' : 'running');

/**
 * `POST /campaigns`: a list's recipients are written now, then its lanes and the campaign together;
 * a segment's campaign is stored `preparing` with its filter frozen, for the poller to prepare.
 */
export async function createCampaign(ports: Ports, session: AccountSession, payload: CampaignPayload): Promise<Campaign> {
  const { answer, plan, where } = await planOf(ports, session, payload);
  if (answer.recipients === 0) throw invalidField('audience', 'Nenhum contato das conexões escolhidas está neste público');
  const at = ports.clock().toISOString();
  const id = ports.newId();
  const fields = {
    accountId: session.accountId,
    id,
    name: payload.name,
    audience: payload.audience,
    serviceIds: payload.serviceIds,
    message: payload.message,
    startAt: answer.startAt,
    window: payload.window,
    pace: payload.pace,
    optOutHint: payload.optOutHint,
    recipients: answer.recipients,
    estimatedFinishAt: answer.estimatedFinishAt,
    createdBy: { id: session.user.id, name: session.user.name },
    createdAt: at,
    updatedAt: at,
  };
  if (where) {
    const campaign = campaignItem({ ...fields, status: 'preparing', frozenWhere: where as Record<string, unknown> });
    await writeTogether(ports.table, { campaign: putNewStep(campaign) });
    return presentCampaign(campaign, []);
  }
  await writeRecipients(ports, { accountId: session.accountId, id }, plan);
  const campaign = campaignItem({ ...fields, status: startStatus(answer.startAt, at) });
  const lanes = laneItems(campaign, plan);
  await writeTogether(ports.table, { campaign: putNewStep(campaign), ...Object.fromEntries(lanes.map((lane, i) => [`lane${i}`, putNewStep(lane)])) });
  return presentCampaign(campaign, lanes);
}

/**
 * Prepares a segment campaign: who its frozen filter matches now, written as recipients (again from
 * the start if an earlier run died: the same keys, still queued), then the lanes and the start in
 * one transaction. A campaign cancelled meanwhile is left as it is. Answers whether it started.
 */
export async function prepareCampaign(ports: Ports, ref: Pick<CampaignItem, 'accountId' | 'id'>): Promise<boolean> {
  const campaign = await getCampaignItem(ports.table, ref.accountId, ref.id, true);
  if (campaign?.status !== 'preparing' || !campaign.frozenWhere) return false;
  const members = await segmentMembers(ports, campaign.accountId, campaign.frozenWhere as Where);
  const plan = lanesOf(members, campaign.serviceIds);
  await writeRecipients(ports, campaign, plan);
  const now = ports.clock().toISOString();
  // A start that passed while preparing is now (ISO instants compare as strings).
  const startAt = [campaign.startAt, now].sort()[1]!;
  const lanes = laneItems({ ...campaign, startAt }, plan);
  const estimatedFinishAt = await estimate(ports, campaign.accountId, plan, campaign, Date.parse(startAt));
  try {
    await writeTogether(ports.table, {
      campaign: campaignPreparedStep(campaign, startStatus(startAt, now), plan.recipients, estimatedFinishAt, now),
      ...Object.fromEntries(lanes.map((lane, i) => [`lane${i}`, putNewStep(lane)])),
    });
    return true;
  } catch (error) {
    if (refusedBy(error)) return false;
    throw error;
  }
}

/** Prepares every segment campaign waiting for it (the poller, before it feeds the lanes). */
export async function prepareCampaigns(ports: Ports, onError?: (campaignId: string, error: unknown) => void): Promise<number> {
  let started = 0;
  for (const ref of await preparingCampaignsOf(ports.table)) {
    try {
      if (await prepareCampaign(ports, ref)) started++;
    } catch (error) {
      onError?.(ref.id, error);
    }
  }
  return started;
}
