/**
 * One step of a campaign's lane (ADR-0227): send its next recipient, skip it with its
 * reason, wait (window closed, day full, connection down, the previous message still queued), or
 * finish. A send is one transaction: the message (the outbox: the stream dispatches it, ADR-0059),
 * its contact, the recipient out of `queued`, the lane's next round, and a check that the campaign
 * still runs. A refused member means another poller took the lane, or the campaign was paused or
 * cancelled meanwhile: nothing is sent. So each recipient is sent at most once, and one not sent
 * stays queued for the next step: exactly once. On a connection of the API oficial a campaign with a
 * template sends it (its window closed or not) as `send-message.ts` stores one: the same message
 * fields, so the outbox, dispatch and the Cloud adapter handle it unchanged.
 */
import { type CampaignSkipReason, type CampaignTemplate, optOutHintText } from '#contracts/campaigns.ts';
import { customerWindow } from '#contracts/customer-window.ts';
import { ack } from '#contracts/messages.ts';
import { fillVariables, variableValues } from '#contracts/quick-replies.ts';
import {
  type CampaignItem,
  campaignStatusStep,
  getCampaignItem,
  getLaneItem,
  type LaneItem,
  laneItem,
  laneStep,
  lanesOf,
  nextRecipient,
  type RecipientItem,
  recipientTakenStep,
} from '#db/campaigns.ts';
import { getContactItem, type ContactItem } from '#db/contacts.ts';
import { getFileItem } from '#db/files.ts';
import { getMessageItem, type MessageItem, messageItem } from '#db/messages.ts';
import { getServiceItem, type ServiceItem } from '#db/services.ts';
import { isHeaderMedia } from '#contracts/template-fill.ts';
import { type ConditionCheckStep, refusedBy, type Steps, writeTogether } from '#db/transaction.ts';
import { keys } from '#db/keys.ts';
import { accountBusinessHours } from '../business-hours/settings.ts';
import { recordMessage } from '../messages/record-message.ts';
import type { Ports } from '../ports.ts';
import { campaignTemplateOf, fillCampaignTemplate, sendsTemplates } from './campaign-template.ts';
import { campaignSchedule, countSend, drawGapMs, nextSendTime } from './lane-clock.ts';
import { campaignOptOutWord } from './opt-out-word.ts';

export interface LaneRef {
  accountId: string;
  campaignId: string;
  serviceId: string;
}

/** What a step did, and when the lane wants its next one (null: not while this campaign runs). */
export type LaneStep = { kind: 'sent' | 'skipped' | 'waiting' | 'finished' | 'left'; nextAt: number | null };

/** How long a lane waits before looking again at a message still queued, or at a connection that is down. */
const inFlightRecheckMs = 10_000;
const slowRecheckMs = 5 * 60_000;

export interface FeedOptions {
  /** @default Math.random (the gaps) */
  random?: () => number;
}

const runningCheck = (campaign: Pick<CampaignItem, 'accountId' | 'id'>): ConditionCheckStep => ({
  ConditionCheck: {
    Key: keys.campaign(campaign.accountId, campaign.id),
    ConditionExpression: '#status IN (:scheduled, :running)',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':scheduled': 'scheduled', ':running': 'running' },
  },
});

/** Writes the lane's next state alone (a wait, the end), guarded by its round and the campaign still running. */
async function moveLane(ports: Ports, campaign: CampaignItem, lane: LaneItem, next: Partial<LaneItem>, extra: Steps = {}): Promise<boolean> {
  try {
    await writeTogether(ports.table, {
      lane: laneStep(laneItem({ ...lane, ...next, round: lane.round + 1 }), lane.round),
      campaign: runningCheck(campaign),
      ...extra,
    });
    return true;
  } catch (error) {
    if (refusedBy(error, 'lane', 'campaign', 'recipient')) return false;
    throw error;
  }
}

function skipReason(
  contact: ContactItem | undefined,
  lane: LaneItem,
  channelType: ServiceItem['channelType'],
  now: number,
  template: boolean,
): CampaignSkipReason | null {
  if (!contact) return 'deleted';
  if (contact.contactType !== 'user') return 'group';
  if (contact.serviceId !== lane.serviceId) return 'otherConnection';
  if (contact.archivedAt) return 'archived';
  if (contact.optedOutAt) return 'optedOut';
  // A template is what the window allows once it closed.
  if (!template && customerWindow({ lastInboundAt: contact.lastInboundAt, service: { type: channelType } }, now).kind === 'closed') return 'windowClosed';
  return null;
}

/** Ends the campaign once none of its lanes has anything left. */
async function finishIfDone(ports: Ports, campaign: CampaignItem): Promise<void> {
  const lanes = await lanesOf(ports.table, campaign.accountId, campaign.id);
  if (!lanes.every((lane) => lane.finished)) return;
  await writeTogether(ports.table, { campaign: campaignStatusStep(campaign, ['running', 'scheduled'], 'finished', ports.clock().toISOString()) }).catch(
    (error) => {
      if (!refusedBy(error)) throw error;
    },
  );
}

export async function feedLane(ports: Ports, ref: LaneRef, options: FeedOptions = {}): Promise<LaneStep> {
  const random = options.random ?? Math.random;
  const [lane, campaign] = await Promise.all([
    getLaneItem(ports.table, ref.accountId, ref.campaignId, ref.serviceId),
    getCampaignItem(ports.table, ref.accountId, ref.campaignId, true),
  ]);
  if (!lane || !campaign || lane.finished || !lane.nextAt) return { kind: 'left', nextAt: null };
  if (campaign.status !== 'running' && campaign.status !== 'scheduled') return { kind: 'left', nextAt: null };
  const now = ports.clock().getTime();
  const due = Date.parse(lane.nextAt);
  if (due > now) return { kind: 'waiting', nextAt: due };
  const wait = async (until: number, waiting: string | null): Promise<LaneStep> =>
    (await moveLane(ports, campaign, lane, { nextAt: new Date(until).toISOString(), waiting }))
      ? { kind: 'waiting', nextAt: until }
      : { kind: 'left', nextAt: null };

  // One campaign message of a number in the queue at a time: the team's replies go between them.
  if (lane.inFlight) {
    const message = await getMessageItem(ports.table, ref.accountId, lane.inFlight.contactId, lane.inFlight.messageId);
    // Held by the number's daily cap (the worker's, ADR-0179): look again in a while, saying why.
    if (message && message.ack === ack.sending) return message.waiting ? wait(now + slowRecheckMs, message.waiting) : wait(now + inFlightRecheckMs, null);
    // The rhythm holds where WhatsApp sees it: the next message goes a gap after the channel took this one.
    const paced = message?.sentAt && lane.gapMs ? Date.parse(message.sentAt) + lane.gapMs : 0;
    if (paced > now) return wait(paced, null);
  }
  const service = await getServiceItem(ports.table, ref.accountId, ref.serviceId);
  if (!service) {
    // The connection was deleted: its contacts went with it; nothing of this lane can go.
    return (await moveLane(ports, campaign, lane, { nextAt: null, finished: true, inFlight: null }))
      ? finished(ports, campaign)
      : { kind: 'left', nextAt: null };
  }
  if (service.status !== 'connected') return wait(now + slowRecheckMs, 'A conexão está desconectada');

  const recipient = await nextRecipient(ports.table, lane);
  if (!recipient) {
    return (await moveLane(ports, campaign, lane, { nextAt: null, finished: true, inFlight: null, waiting: null }))
      ? finished(ports, campaign)
      : { kind: 'left', nextAt: null };
  }
  const contact = await getContactItem(ports.table, ref.accountId, recipient.contactId);
  const newChat = !contact?.lastInboundAt;
  const template = campaign.message.template && sendsTemplates(ports, service) ? campaign.message.template : null;
  let reason = skipReason(contact, lane, service.channelType, now, Boolean(template));
  const { hours } = await accountBusinessHours(ports, ref.accountId);
  const schedule = campaignSchedule(campaign.window, hours);
  const at = reason ? now : nextSendTime(schedule, campaign.pace, lane.day, now, newChat);
  if (at === null) reason = campaign.pace.dailyNewChats === 0 && newChat ? 'noNewChats' : null;
  if (reason) return skip(ports, campaign, lane, recipient, reason, now);
  if (at === null) return wait(now + 3_600_000, 'A janela de envio não abre');
  if (at > now) return wait(at, null);
  return send(ports, campaign, lane, recipient, contact!, { newChat, now, timeZone: hours.timeZone, random, template });
}

async function finished(ports: Ports, campaign: CampaignItem): Promise<LaneStep> {
  await finishIfDone(ports, campaign);
  return { kind: 'finished', nextAt: null };
}

async function skip(
  ports: Ports,
  campaign: CampaignItem,
  lane: LaneItem,
  recipient: RecipientItem,
  reason: CampaignSkipReason,
  now: number,
): Promise<LaneStep> {
  const moved = await moveLane(
    ports,
    campaign,
    lane,
    { cursor: recipient.sk, skipped: lane.skipped + 1, nextAt: new Date(now).toISOString(), waiting: null },
    { recipient: recipientTakenStep(recipient, { reason }, new Date(now).toISOString()) },
  );
  return moved ? { kind: 'skipped', nextAt: now } : { kind: 'left', nextAt: null };
}

async function send(
  ports: Ports,
  campaign: CampaignItem,
  lane: LaneItem,
  recipient: RecipientItem,
  contact: ContactItem,
  at: { newChat: boolean; now: number; timeZone: string; random: () => number; template: CampaignTemplate | null },
): Promise<LaneStep> {
  const ctx = { contact: { name: contact.name, data: { phoneNumber: contact.phoneNumber, email: contact.email } }, agent: campaign.createdBy };
  // The template, when this lane sends one: the connection's stored one, still approved (it may have been paused since the campaign was created).
  const stored = at.template ? await campaignTemplateOf(ports, campaign.accountId, lane.serviceId, at.template) : undefined;
  if (at.template && stored?.status !== 'APPROVED') return skip(ports, campaign, lane, recipient, 'templateUnavailable', at.now);
  let file: MessageItem['file'] = null;
  let messageType: MessageItem['messageType'] = 'text';
  // The campaign's file goes with the text, or as a template's media header (a template without one goes without it).
  if (campaign.message.fileId && (!stored || isHeaderMedia(stored.headerFormat))) {
    const record = await getFileItem(ports.table, campaign.accountId, campaign.message.fileId);
    if (!record) return skip(ports, campaign, lane, recipient, 'deleted', at.now);
    file = { id: record.id, name: record.name, mimetype: record.mimetype, size: record.size, objectKey: record.objectKey };
    messageType = record.messageType;
  }
  let text: string;
  let template: MessageItem['template'];
  if (stored && at.template) {
    // Meta's approved text as it is: nothing appended, not even the opt-out hint (Meta sends only the template).
    const filled = fillCampaignTemplate(stored, at.template, ctx, file);
    if (!filled.ok) return skip(ports, campaign, lane, recipient, 'templateFill', at.now);
    text = filled.text;
    template = filled.send;
  } else {
    const body = fillVariables(campaign.message.text, variableValues(ctx)).trim();
    const hint = campaign.optOutHint ? optOutHintText(await campaignOptOutWord(ports, campaign.accountId)) : '';
    text = [body, hint].filter(Boolean).join('\n\n');
  }
  const timestamp = new Date(at.now).toISOString();
  const id = ports.newId(at.now);
  const gap = drawGapMs(campaign.pace, at.random);
  const message = messageItem({
    id,
    accountId: campaign.accountId,
    contactId: contact.id,
    serviceId: contact.serviceId,
    text,
    messageType,
    timestamp,
    isFromMe: true,
    ack: ack.sending,
    error: null,
    file,
    quotedMessage: null,
    replyMessageId: null,
    replyToChannelMessageId: null,
    user: campaign.createdBy,
    groupContact: null,
    channelMessageId: null,
    sendAttempt: 1,
    campaign: { id: campaign.id, recipient: recipient.sk },
    createdAt: timestamp,
    updatedAt: timestamp,
    ...(template ? { template } : {}),
  });
  const next = laneItem({
    ...lane,
    round: lane.round + 1,
    cursor: recipient.sk,
    sent: lane.sent + 1,
    day: countSend(lane.day, at.now, at.timeZone, at.newChat),
    inFlight: { contactId: contact.id, messageId: id },
    gapMs: gap,
    nextAt: new Date(at.now + gap).toISOString(),
    waiting: null,
  });
  const outcome = await recordMessage(ports, message, {
    countUnread: false,
    contact,
    // A reply or an opt-out after it counts on this campaign (campaign-progress.ts).
    also: () => ({ changes: { lastCampaign: { id: campaign.id, serviceId: lane.serviceId, recipient: recipient.sk, at: timestamp } }, lines: [] }),
    guards: { recipient: recipientTakenStep(recipient, { messageId: id }, timestamp), lane: laneStep(next, lane.round), campaign: runningCheck(campaign) },
  });
  if (!outcome.stored) return { kind: 'left', nextAt: null };
  if (campaign.status === 'scheduled') {
    await writeTogether(ports.table, { campaign: campaignStatusStep(campaign, ['scheduled'], 'running', timestamp) }).catch((error) => {
      if (!refusedBy(error)) throw error;
    });
  }
  return { kind: 'sent', nextAt: Date.parse(next.nextAt!) };
}
