/**
 * A light WhatsApp double for the worker fleet's tests and bench: sessions that hold no socket (a
 * few hundred bytes each), and sends that go out only through a session this process holds (as
 * WhatsApp's go through the socket; otherwise the channel asks to come back, as the real adapter
 * does while no socket is up). Each send that goes out is appended to `sentLog` (one JSON line:
 * worker, connection, message), so a test can count sends across processes.
 */
import { appendFileSync } from 'node:fs';
import { whatsappWorkerChannel } from '#connectors/whatsapp/worker-adapter.ts';
import { type ChannelAdapter, ChannelSendError } from '#domain/channels/port.ts';
import { SocketDouble } from './whatsapp-double.ts';

export interface FleetDouble {
  adapter: ChannelAdapter;
  /** Connections with a session open in this process. */
  readonly open: ReadonlySet<string>;
}

export function fleetDouble(options: { worker: string; sentLog?: string }): FleetDouble {
  const base = whatsappWorkerChannel({ socketFactory: () => new SocketDouble() });
  const open = new Set<string>();
  const adapter: ChannelAdapter = {
    ...base,
    async send(connection, message) {
      if (!open.has(connection.serviceId)) throw new ChannelSendError('Sem conexão com o WhatsApp agora', { retryAfterSeconds: 2 });
      if (options.sentLog)
        appendFileSync(
          options.sentLog,
          `${JSON.stringify({ worker: options.worker, serviceId: connection.serviceId, messageId: message.messageId, text: message.text })}\n`,
        );
      return { channelMessageId: `fleet-${message.messageId}` };
    },
    sessions: {
      ...base.sessions!,
      checkContact: undefined,
      markRead: undefined,
      open: ({ run }) => {
        open.add(run.serviceId);
        return {
          stop: async () => {
            open.delete(run.serviceId);
          },
        };
      },
    },
  };
  return { adapter, open };
}
