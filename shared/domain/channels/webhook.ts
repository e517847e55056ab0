/** A delivery a channel posts to our webhook route, handed to its adapter. */
import type { ServiceType } from '#contracts/services.ts';
import { fail } from '../errors.ts';
import type { Ports } from '../ports.ts';
import { inboundSink } from './inbound-sink.ts';
import { WebhookRefused, type WebhookDelivery } from './port.ts';

export interface ReceiveOptions {
  /** Called once for each new message stored (not for a redelivery). */
  onMessageStored?: () => void;
}

export async function receiveWebhook(ports: Ports, type: ServiceType, delivery: WebhookDelivery, options: ReceiveOptions = {}): Promise<void> {
  const webhook = ports.channels.get(type)?.webhook;
  if (!webhook) throw fail.notFound();
  const sinkFor = (connection: Parameters<typeof inboundSink>[1]) => {
    const sink = inboundSink(ports, connection);
    return {
      ...sink,
      message: async (input: Parameters<typeof sink.message>[0]) => {
        const stored = await sink.message(input);
        if (stored) options.onMessageStored?.();
        return stored;
      },
    };
  };
  try {
    await webhook.receive(ports, sinkFor, delivery);
  } catch (error) {
    if (error instanceof WebhookRefused) throw error.kind === 'unauthorized' ? fail.unauthorized() : fail.invalid();
    throw error;
  }
}
