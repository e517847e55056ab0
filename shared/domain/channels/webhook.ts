/** A delivery a channel posts to our webhook route, handed to its adapter. */
import type { ServiceType } from '#contracts/services.ts';
import { fail } from '../errors.ts';
import type { Ports } from '../ports.ts';
import { inboundSink } from './inbound-sink.ts';
import { WebhookRefused, type WebhookDelivery } from './port.ts';

export async function receiveWebhook(ports: Ports, type: ServiceType, delivery: WebhookDelivery): Promise<void> {
  const webhook = ports.channels.get(type)?.webhook;
  if (!webhook) throw fail.notFound();
  try {
    await webhook.receive(ports, (connection) => inboundSink(ports, connection), delivery);
  } catch (error) {
    if (error instanceof WebhookRefused) throw error.kind === 'unauthorized' ? fail.unauthorized() : fail.invalid();
    throw error;
  }
}
