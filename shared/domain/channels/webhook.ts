/** A delivery a channel posts to our webhook route, handed to its adapter. */
import type { ServiceType } from '#contracts/services.ts';
import { fail } from '../errors.ts';
import type { Ports } from '../ports.ts';
import { inboundSink, receiveProfile } from './inbound-sink.ts';
import { WebhookRefused, type WebhookDelivery } from './port.ts';

export interface ReceiveOptions {
  /** Called once for each new message stored (not for a redelivery). */
  onMessageStored?: () => void;
  /** Called when the channel reports the connection's number fell to a red (low) quality rating from another. */
  onQualityRed?: (connection: { accountId: string; serviceId: string }) => void;
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
      profile: async (change: Parameters<NonNullable<typeof sink.profile>>[0]) => {
        const moved = await receiveProfile(ports, connection, change);
        if (moved?.after === 'RED' && moved.before !== 'RED') options.onQualityRed?.(connection);
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

/**
 * A channel's `GET` verification of its webhook route (Meta's handshake): the text to echo back.
 * 404 for a channel without one, 403 when the channel refuses (a wrong verify token, an unknown connection).
 */
export async function answerWebhookHandshake(ports: Ports, type: ServiceType, serviceId: string, query: Record<string, string | undefined>): Promise<string> {
  const handshake = ports.channels.get(type)?.webhook?.handshake;
  if (!handshake) throw fail.notFound();
  const answer = await handshake(ports, serviceId, query);
  if (answer === null) throw fail.forbidden();
  return answer;
}
