/**
 * Planning and creating a campaign (ADR draft campaigns): its audience read and split into one lane
 * per connection (each contact is sent from its own connection; contacts of connections the
 * campaign does not use are left out), known contacts ahead of first messages, and the estimated
 * finish from the lanes' rules. Creating writes the recipients, then the lanes and the campaign in
 * one transaction, so a lane never exists without its recipients. Admins only.
 */
import type { Campaign, CampaignPayload } from '#contracts/campaigns.ts';
import { errorTexts } from '#contracts/errors.ts';
import { uploadKindOf } from '#contracts/files.ts';
import { audienceContacts, campaignItem, type CampaignItem, laneItem, type LaneItem, putRecipients, recipientItem } from '#db/campaigns.ts';
import type { ContactItem } from '#db/contacts.ts';
import { getFileItem } from '#db/files.ts';
import { getServiceItem } from '#db/services.ts';
import { putNewStep, writeTogether } from '#db/transaction.ts';
import { accountBusinessHours } from '../business-hours/settings.ts';
import { fail } from '../errors.ts';
import type { Ports } from '../ports.ts';
import type { AccountSession } from '../session.ts';
import { campaignSchedule, estimateLaneFinish, everSendable } from './lane-clock.ts';
import { presentCampaign } from './present-campaign.ts';

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
}

interface Plan extends CampaignPlanAnswer {
  lanes: Map<string, { known: ContactItem[]; fresh: ContactItem[] }>;
}

async function planOf(ports: Ports, session: AccountSession, payload: CampaignPayload): Promise<Plan> {
  if (!session.user.isAdmin) throw fail.forbidden();
  const now = ports.clock().getTime();
  const startAt = payload.startAt ? Date.parse(payload.startAt) : now;
  if (startAt < now - 60_000) throw invalidField('startAt', 'Escolha um horário de início no futuro');
  for (const [i, serviceId] of payload.serviceIds.entries()) {
    if (!(await getServiceItem(ports.table, session.accountId, serviceId))) throw invalidField(`serviceIds.${i}`, 'Conexão não encontrada');
  }
  if (payload.message.fileId) {
    const file = await getFileItem(ports.table, session.accountId, payload.message.fileId);
    const stored = file ? await ports.storage.head(file.objectKey) : undefined;
    const kind = file ? uploadKindOf(file.mimetype) : undefined;
    if (!file || !stored || !kind || stored.size === 0 || stored.size !== file.size) throw fail.invalid(errorTexts.fileNotUploaded);
  }
  const contacts = await audienceContacts(ports.table, session.accountId, payload.audience.contactIds);
  const lanes = new Map(payload.serviceIds.map((id) => [id, { known: [] as ContactItem[], fresh: [] as ContactItem[] }]));
  let recipients = 0;
  for (const contact of contacts) {
    const lane = lanes.get(contact.serviceId);
    if (!lane || contact.contactType !== 'user') continue;
    (contact.lastInboundAt ? lane.known : lane.fresh).push(contact);
    recipients++;
  }
  const { hours } = await accountBusinessHours(ports, session.accountId);
  const schedule = campaignSchedule(payload.window, hours);
  let finish: number | null = startAt;
  for (const lane of lanes.values()) {
    const fresh = everSendable(payload.pace, true) ? lane.fresh.length : 0;
    const end = estimateLaneFinish(schedule, payload.pace, { known: lane.known.length, fresh }, startAt);
    finish = end === null || finish === null ? null : Math.max(finish, end);
    // First messages a pace without new chats never sends are skipped when their turn comes, not waited for.
  }
  const firstMessages = [...lanes.values()].reduce((n, lane) => n + lane.fresh.length, 0);
  return {
    lanes,
    recipients,
    leftOut: payload.audience.contactIds.length - recipients,
    firstMessages,
    estimatedFinishAt: recipients === 0 || finish === null ? null : new Date(finish).toISOString(),
    startAt: new Date(startAt).toISOString(),
  };
}

/** `POST /campaigns/plan`: the wizard's summary before starting; nothing is written. */
export async function planCampaign(ports: Ports, session: AccountSession, payload: CampaignPayload): Promise<CampaignPlanAnswer> {
  const { lanes: _lanes, ...answer } = await planOf(ports, session, payload);
  return answer;
}

/** `POST /campaigns`: writes the recipients, then the lanes and the campaign together; it starts at `startAt`. */
export async function createCampaign(ports: Ports, session: AccountSession, payload: CampaignPayload): Promise<Campaign> {
  const plan = await planOf(ports, session, payload);
  if (plan.recipients === 0) throw invalidField('audience', 'Nenhum contato das conexões escolhidas está na lista');
  const at = ports.clock().toISOString();
  const id = ports.newId();
  for (const [serviceId, lane] of plan.lanes) {
    const items = [...lane.known.map((c) => ({ c, fresh: false })), ...lane.fresh.map((c) => ({ c, fresh: true }))].map(({ c, fresh }) =>
      recipientItem({ accountId: session.accountId, campaignId: id, serviceId, contactId: c.id, fresh }),
    );
    await putRecipients(ports.table, items);
  }
  const campaign: CampaignItem = campaignItem({
    accountId: session.accountId,
    id,
    name: payload.name,
    status: Date.parse(plan.startAt) > Date.parse(at) ? 'scheduled' : 'running',
    audience: payload.audience,
    serviceIds: payload.serviceIds,
    message: payload.message,
    startAt: plan.startAt,
    window: payload.window,
    pace: payload.pace,
    optOutHint: payload.optOutHint,
    recipients: plan.recipients,
    estimatedFinishAt: plan.estimatedFinishAt,
    createdBy: { id: session.user.id, name: session.user.name },
    createdAt: at,
    updatedAt: at,
  });
  const lanes: LaneItem[] = [...plan.lanes].map(([serviceId, lane]) =>
    laneItem({
      accountId: session.accountId,
      campaignId: id,
      serviceId,
      round: 0,
      cursor: null,
      nextAt: lane.known.length + lane.fresh.length > 0 ? plan.startAt : null,
      day: null,
      inFlight: null,
      finished: lane.known.length + lane.fresh.length === 0,
      recipients: lane.known.length + lane.fresh.length,
    }),
  );
  await writeTogether(ports.table, { campaign: putNewStep(campaign), ...Object.fromEntries(lanes.map((lane, i) => [`lane${i}`, putNewStep(lane)])) });
  return presentCampaign(campaign, lanes);
}
