/**
 * Webhook events from the table's changes (ADR-0233): the `webhook-events`
 * stream consumer hands each batch here. A change becomes an event only for an account with an
 * enabled subscription to its type (subscription-cache.ts); the event's `data` is the entity as the
 * API answers it (the routes' presenters), never the stored item. Each event is one delivery per
 * subscription, written with an id made from the stream record, so a batch delivered twice
 * writes nothing new and receivers see one event id however often it is retried.
 *
 * - message.created / message.updated: a message stored, or changed in what the API shows (acks,
 *   edits, reactions, deletion); internal bookkeeping on the item makes no event.
 * - contact.created / contact.updated: a contact stored, or changed in its own fields (name,
 *   e-mail, phone, gender, avatar, tags, archive, opt-out), not by every message it gets.
 * - contact.deleted: a deletion's tombstone.
 * - conversation.status_changed / conversation.assigned: the contact's status, or its assignee or
 *   department (docs/conversation-lifecycle.md keeps them in step with the lifecycle).
 * - campaign.progress: a campaign's status or its lanes' tallies moved; one event per campaign and
 *   batch, with the campaign as GET /campaigns/{id} answers it.
 */
import { createHash } from 'node:crypto';
import type { WebhookEventBody, WebhookEventType } from '#contracts/webhooks.ts';
import { getCampaignItem, type LaneItem, type LaneTallies, lanesOf } from '#db/campaigns.ts';
import type { ContactItem, ContactTombstone } from '#db/contacts.ts';
import { entityTypes } from '#db/keys.ts';
import type { MessageItem } from '#db/messages.ts';
import { getServiceItem } from '#db/services.ts';
import { putNewWebhookDelivery, webhookDeliveryItem } from '#db/webhooks.ts';
import { presentCampaign } from '../campaigns/present-campaign.ts';
import { presentContact } from '../contacts/present-contact.ts';
import { toMessage } from '../messages/present-message.ts';
import type { Ports } from '../ports.ts';
import type { SubscriptionCache } from './subscription-cache.ts';

type Item = Record<string, unknown> & { type?: string };

/** One stream record, as the consumer reads it. */
export interface TableChange {
  /** The stream record's own id (the same on a redelivery). */
  recordId: string;
  change: 'INSERT' | 'MODIFY' | 'REMOVE';
  next: Item | undefined;
  previous: Item | undefined;
  /** When the table made the change (epoch ms). */
  at: number;
}

interface PendingEvent {
  accountId: string;
  type: WebhookEventType;
  /** What makes the event's id: the record (and the type, since one record can make several). */
  source: string;
  at: number;
  data: () => Promise<unknown>;
}

const contactFields = ['name', 'email', 'phoneNumber', 'phoneCountry', 'gender', 'avatarKey', 'archivedAt', 'tagIds', 'optedOutAt'] as const;
const tallyFields: (keyof LaneTallies)[] = ['recipients', 'sent', 'skipped', 'delivered', 'read', 'failed', 'replied', 'optedOut'];

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
/** Presenting without signing: what a message shows, to compare two versions of it. */
const unsigned = async (key: string) => key;

/** A stable, time-sortable event id: the change's time, then a digest of what made it. */
export function webhookEventId(ports: Ports, source: string, at: number): string {
  const digest = createHash('sha256').update(source).digest('hex').slice(0, 16);
  return `evt_${ports.newId(at).slice(0, 10)}${digest}`;
}

async function messageEvents(ports: Ports, change: TableChange, events: PendingEvent[]): Promise<void> {
  const message = change.next as unknown as MessageItem;
  const previous = change.previous as unknown as MessageItem | undefined;
  if (change.change === 'MODIFY' && previous && same(await toMessage(previous, unsigned), await toMessage(message, unsigned))) return;
  events.push({
    accountId: message.accountId,
    type: change.change === 'INSERT' ? 'message.created' : 'message.updated',
    source: change.recordId,
    at: change.at,
    data: () => toMessage(message, ports.storage.downloadUrl),
  });
}

function contactEvents(ports: Ports, change: TableChange, events: PendingEvent[]): void {
  const contact = change.next as unknown as ContactItem;
  const previous = change.previous as unknown as ContactItem | undefined;
  let presented: Promise<unknown> | undefined;
  const present = () =>
    (presented ??= getServiceItem(ports.table, contact.accountId, contact.serviceId).then((service) =>
      presentContact(contact, service, ports.storage.downloadUrl),
    ));
  const event = (type: WebhookEventType, data: () => Promise<unknown>) =>
    events.push({ accountId: contact.accountId, type, source: `${change.recordId}|${type}`, at: change.at, data });
  if (change.change === 'INSERT' || !previous) {
    event('contact.created', present);
    return;
  }
  if (contactFields.some((f) => !same(previous[f], contact[f]))) event('contact.updated', present);
  const status = { before: previous.status ?? 'open', after: contact.status ?? 'open' };
  if (status.before !== status.after) {
    event('conversation.status_changed', async () => ({ contact: await present(), status: status.after, previousStatus: status.before }));
  }
  const assigned = (c: ContactItem) => ({ userId: c.userId ?? null, departmentId: c.departmentId ?? null });
  if (!same(assigned(previous), assigned(contact))) {
    event('conversation.assigned', async () => ({ contact: await present(), ...assigned(contact), previous: assigned(previous) }));
  }
}

function campaignOf(change: TableChange): { accountId: string; campaignId: string } | undefined {
  const next = change.next;
  if (!next) return undefined;
  if (next.type === entityTypes.campaign) {
    const previous = change.previous;
    if (previous && previous.status === next.status) return undefined;
    return { accountId: next.accountId as string, campaignId: next.id as string };
  }
  const lane = next as unknown as LaneItem;
  const before = change.previous as unknown as LaneItem | undefined;
  if (before && tallyFields.every((f) => before[f] === lane[f])) return undefined;
  return { accountId: lane.accountId, campaignId: lane.campaignId };
}

/** The events of a batch of changes, in order, before anyone is asked whether they are wanted. */
async function eventsOf(ports: Ports, cache: SubscriptionCache, changes: readonly TableChange[]): Promise<PendingEvent[]> {
  const events: PendingEvent[] = [];
  const campaigns = new Map<string, PendingEvent>();
  for (const change of changes) {
    const next = change.next;
    if (!next || change.change === 'REMOVE') continue;
    // An account that takes no event costs the cache's answer, nothing more.
    if (!(await cache.subscribersOf(ports, next.accountId as string)).length) continue;
    switch (next.type) {
      case entityTypes.message:
        await messageEvents(ports, change, events);
        break;
      case entityTypes.contact:
        contactEvents(ports, change, events);
        break;
      case entityTypes.contactTombstone: {
        if (change.change !== 'INSERT') break;
        const tombstone = next as unknown as ContactTombstone;
        events.push({
          accountId: tombstone.accountId,
          type: 'contact.deleted',
          source: change.recordId,
          at: change.at,
          data: async () => ({ id: tombstone.id, deletedAt: tombstone.deletedAt }),
        });
        break;
      }
      case entityTypes.campaign:
      case entityTypes.campaignLane: {
        const campaign = campaignOf(change);
        if (!campaign || campaigns.has(campaign.campaignId)) break;
        const event: PendingEvent = {
          ...campaign,
          type: 'campaign.progress',
          source: change.recordId,
          at: change.at,
          data: async () => {
            const [item, lanes] = await Promise.all([
              getCampaignItem(ports.table, campaign.accountId, campaign.campaignId, true),
              lanesOf(ports.table, campaign.accountId, campaign.campaignId),
            ]);
            return item ? presentCampaign(item, lanes) : null;
          },
        };
        campaigns.set(campaign.campaignId, event);
        events.push(event);
        break;
      }
    }
  }
  return events;
}

/**
 * Writes a delivery for each event and each subscription that wants it, due at once (the
 * `webhook-deliveries` consumer makes the first attempt). Answers how many were written.
 */
export async function enqueueWebhookEvents(ports: Ports, cache: SubscriptionCache, changes: readonly TableChange[]): Promise<number> {
  for (const change of changes) {
    const item = change.next ?? change.previous;
    if (item?.type === entityTypes.webhookSubscription) cache.forget(item.accountId as string);
  }
  let written = 0;
  for (const event of await eventsOf(ports, cache, changes)) {
    const subscribers = await cache.subscribersOf(ports, event.accountId, event.type);
    if (!subscribers.length) continue;
    const data = await event.data();
    if (data === null) continue;
    const id = webhookEventId(ports, event.source, event.at);
    const body: WebhookEventBody = { id, type: event.type, createdAt: new Date(event.at).toISOString(), accountId: event.accountId, data };
    const text = JSON.stringify(body);
    const now = ports.clock().toISOString();
    for (const subscription of subscribers) {
      const delivery = webhookDeliveryItem({
        id,
        accountId: event.accountId,
        subscriptionId: subscription.id,
        eventId: id,
        eventType: event.type,
        body: text,
        nextAttemptAt: now,
        createdAt: now,
      });
      if (await putNewWebhookDelivery(ports.table, delivery)) written++;
    }
  }
  return written;
}
