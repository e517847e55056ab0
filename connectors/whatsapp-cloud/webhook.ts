/**
 * Meta's calls to a WhatsApp (API oficial) connection's webhook, `/api/webhooks/whatsapp-cloud/{serviceId}`
 * (why one URL per connection: the draft ADR whatsapp-cloud-webhook-route):
 *
 * - `GET`: the verification handshake, answered with the challenge when `hub.verify_token` is the
 *   connection's own (generated when the connection was made, shown to its admins).
 * - `POST`: a delivery. The connection's app secret checks `X-Hub-Signature-256` on the raw bytes
 *   before anything parses them (./webhook-payload.ts `openDelivery`, ADR-0207); a missing or wrong
 *   signature is refused (401, counted by the route) and stores nothing. A genuine delivery's events
 *   (./inbound.ts) go to the `InboundSink`: messages (stored once per wamid, so a redelivery stores
 *   nothing; media copied to the bucket through ./media.ts), reactions, statuses as acks under the
 *   forward-only rule of ./acks.ts, coexistence echoes as our own messages, the number's quality
 *   rating onto the connection; template and quality changes kept as records of the connection, a
 *   template's status change also applied to the stored template.
 *
 * One Meta app posts every number's deliveries to the callback configured for it, so a delivery
 * may name another number than this connection's: it goes to the connection holding that number
 * (its exclusive claim) when that connection has the same app secret (same app), else it is
 * ignored and logged. A connection that is not running takes nothing (logged, answered 2xx so Meta
 * does not retry).
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { CloudCredentials, CloudQualityRating } from '#contracts/services.ts';
import { putChannelRecord } from '#db/channel-records.ts';
import { getCloudWebhook } from '#db/cloud-webhooks.ts';
import { keys } from '#db/keys.ts';
import { getServiceItem, isRunningStatus, type ServiceItem } from '#db/services.ts';
import { parseCloudCredentials } from '#domain/channels/cloud-credentials.ts';
import { WebhookRefused, type ChannelConnection, type InboundSink, type WebhookReceiver } from '#domain/channels/port.ts';
import type { Ports } from '#domain/ports.ts';
import { applyTemplateStatus } from '#domain/templates/templates.ts';
import { nextCloudAck } from './acks.ts';
import { graphClient, type GraphClient } from './graph-client.ts';
import { deliveryEvents, type CloudEvent } from './inbound.ts';
import { readPhoneNumber } from './lifecycle.ts';
import { cloudInboundMedia, type MediaReport } from './media.ts';
import { verifyHandshake } from './signature.ts';
import { cloudChannel } from './storage.ts';
import { templateReasonText } from './templates.ts';
import { openDelivery } from './webhook-payload.ts';

/** A connection the delivery's events go to, with what its events need. */
interface Target {
  item: ServiceItem;
  credentials: CloudCredentials;
  sink: InboundSink;
  graph: GraphClient;
}

const digits = (value: string | undefined) => (value ?? '').replace(/\D/g, '');

/** Connection records the adapter keeps of Meta's account-level news (the latest of each, per template). */
const recordAt = (item: ServiceItem, kind: 'TEMPLATE' | 'QUALITY' | 'ACCOUNT', id?: string) => ({
  scope: 'connection' as const,
  accountId: item.accountId,
  serviceId: item.id,
  channel: cloudChannel,
  kind,
  ...(id ? { id } : {}),
});

async function openCredentials(ports: Ports, item: ServiceItem | undefined): Promise<CloudCredentials | null> {
  if (!item?.tokenSealed || item.channelType !== 'whatsapp_cloud') return null;
  return parseCloudCredentials(await ports.vault.open(item.tokenSealed));
}

/** The connection holding a number (its exclusive claim), if any. */
async function numberHolder(ports: Ports, phoneNumberId: string): Promise<{ accountId: string; serviceId: string } | null> {
  const { Item } = await ports.table.doc.send(
    new GetCommand({ TableName: ports.table.name, Key: keys.channelClaim(cloudChannel, 'NUMBER', phoneNumberId), ConsistentRead: true }),
  );
  return Item && typeof Item.accountId === 'string' && typeof Item.serviceId === 'string' ? { accountId: Item.accountId, serviceId: Item.serviceId } : null;
}

function log(message: string, details: Record<string, unknown>): void {
  console.warn(JSON.stringify({ source: 'whatsapp-cloud-webhook', message, ...details }));
}

export const whatsappCloudWebhook: WebhookReceiver = {
  async handshake(ports, serviceId, query) {
    const hook = await getCloudWebhook(ports.table, serviceId);
    if (!hook) return null;
    return verifyHandshake(query, hook.verifyToken);
  },

  async receive(ports, inbound, delivery) {
    const hook = await getCloudWebhook(ports.table, delivery.serviceId);
    const item = hook ? await getServiceItem(ports.table, hook.accountId, hook.serviceId) : undefined;
    const credentials = await openCredentials(ports, item);
    if (!item || !credentials) throw new WebhookRefused('unauthorized');
    const opened = openDelivery(delivery.rawBody ?? new Uint8Array(), delivery.headers, credentials.appSecret);
    if (opened.kind === 'refused') {
      log('delivery refused: signature', { serviceId: item.id, reason: opened.reason });
      throw new WebhookRefused('unauthorized');
    }
    if (opened.kind === 'invalid') {
      log('delivery refused: not a WhatsApp Business Account delivery', { serviceId: item.id, issue: opened.issue.slice(0, 300) });
      throw new WebhookRefused('invalid');
    }

    const targets = new Map<string, Promise<Target | null>>();
    const targetOf = (serviceItem: ServiceItem, serviceCredentials: CloudCredentials): Target | null => {
      if (!isRunningStatus(serviceItem.status)) return null;
      const connection: ChannelConnection = {
        accountId: serviceItem.accountId,
        serviceId: serviceItem.id,
        type: 'whatsapp_cloud',
        token: null,
      };
      return { item: serviceItem, credentials: serviceCredentials, sink: inbound(connection), graph: graphClient(serviceCredentials.accessToken) };
    };
    const own = targetOf(item, credentials);
    /** The connection of a number the delivery names: this one, or another of the same Meta app. */
    const forNumber = (phoneNumberId: string | null): Promise<Target | null> => {
      if (!phoneNumberId || phoneNumberId === credentials.phoneNumberId) return Promise.resolve(own);
      let found = targets.get(phoneNumberId);
      if (!found) {
        found = (async () => {
          const holder = await numberHolder(ports, phoneNumberId);
          const other = holder ? await getServiceItem(ports.table, holder.accountId, holder.serviceId) : undefined;
          const otherCredentials = await openCredentials(ports, other);
          // Signed with this connection's app secret: only a connection of the same app may take it.
          if (!other || !otherCredentials || otherCredentials.appSecret !== credentials.appSecret) return null;
          return targetOf(other, otherCredentials);
        })();
        targets.set(phoneNumberId, found);
      }
      return found;
    };

    const report: MediaReport = { urlRetries: 0 };
    const events = deliveryEvents(opened.delivery, { now: ports.clock().getTime() });
    for (const event of events) {
      const phoneNumberId = 'phoneNumberId' in event ? event.phoneNumberId : null;
      const target = await forNumber(phoneNumberId);
      if (!target) {
        log('event not taken: no running connection of this app holds the number', { serviceId: item.id, kind: event.kind, phoneNumberId });
        continue;
      }
      await handle(ports, target, event, report);
    }
    if (report.urlRetries) log('media URL asked for again', { serviceId: item.id, retries: report.urlRetries });
  },
};

async function handle(ports: Ports, target: Target, event: CloudEvent, report: MediaReport): Promise<void> {
  const { item, sink } = target;
  switch (event.kind) {
    case 'message':
      await sink.message({
        ...event.message,
        media: event.media
          ? cloudInboundMedia(
              ports,
              { accountId: item.accountId, graph: target.graph, accessToken: target.credentials.accessToken },
              event.media,
              event.message.type,
              report,
            )
          : null,
      });
      return;
    case 'reaction':
      await sink.reaction(event.reaction);
      return;
    // As the QR channel's edits and deletions (connectors/whatsapp/inbound.ts): the text replaced and
    // marked edited, or the message marked deleted; one not stored here (older than the connection) changes nothing.
    case 'edit':
      await sink.edit(event.edit);
      return;
    case 'deletion':
      await sink.deletion(event.deletion);
      return;
    case 'ack':
      // Meta's statuses come in any order: the forward-only rule, not the product's `nextAck`
      // (under which a failure always wins), decides where the bubble ends.
      await sink.ack({ ...event.ack, next: nextCloudAck });
      return;
    case 'template':
      await putChannelRecord(
        ports.table,
        recordAt(item, 'TEMPLATE', event.templateId),
        { name: event.name, language: event.language, event: event.event, category: event.category, reason: event.reason, text: event.text },
        { now: ports.clock() },
      );
      // The stored template (the 'Modelos de mensagem' screen, sends) takes the new status live.
      await applyTemplateStatus(
        ports,
        { accountId: item.accountId, serviceId: item.id, templateId: event.templateId },
        { event: event.event, reason: templateReasonText(event.reason) },
      );
      return;
    case 'quality': {
      // The update names the number by its display form; it is this connection's when the digits agree.
      if (digits(event.displayPhoneNumber) !== digits(item.cloud?.displayPhoneNumber)) {
        log('quality update for another number', { serviceId: item.id, displayPhoneNumber: event.displayPhoneNumber });
        return;
      }
      await putChannelRecord(
        ports.table,
        recordAt(item, 'QUALITY'),
        { event: event.event, limit: event.limit, previousLimit: event.previousLimit, text: event.text, alarm: event.alarm },
        { now: ports.clock() },
      );
      // The update tells the event (FLAGGED, UNFLAGGED, a limit change), not the rating: read it.
      let rating: CloudQualityRating | undefined = event.event === 'FLAGGED' ? 'RED' : undefined;
      try {
        rating = (await readPhoneNumber(target.credentials)).qualityRating ?? rating;
      } catch (error) {
        log('quality rating not read', { serviceId: item.id, error: (error as Error).message });
      }
      if (rating) await sink.profile?.({ qualityRating: rating });
      if (event.alarm || rating === 'RED') log('number quality or limit dropped', { serviceId: item.id, event: event.event, rating, limit: event.limit });
      return;
    }
    case 'account':
      await putChannelRecord(ports.table, recordAt(item, 'ACCOUNT'), { event: event.event, text: event.text, alarm: event.alarm }, { now: ports.clock() });
      if (event.alarm) log('account update', { serviceId: item.id, event: event.event });
      return;
    case 'numberChanged':
      log('customer changed number', { serviceId: item.id, wamid: event.wamid });
      return;
    case 'channelError':
      log('errors reported by Meta', { serviceId: item.id, codes: event.errors.map((e) => e.code) });
      return;
    case 'ignored':
      log('change not taken', { serviceId: item.id, field: event.field, issue: event.issue });
      return;
  }
}
