/**
 * The WhatsApp channel as the channel worker runs it: the functions' registration
 * (`adapter.ts`) plus the sessions (Baileys sockets), the sends through them and the logout of a
 * connection no worker holds. Each call makes an adapter with its own registry of open sockets, so
 * two workers in one process (tests) do not reach each other's sockets.
 */
import type { ChannelAdapter } from '#domain/channels/port.ts';
import { whatsappChannel } from './adapter.ts';
import { liveConnections } from './live.ts';
import { sendThrough } from './send.ts';
import { defaultSessionOptions, type SessionOptions, WhatsAppSession } from './session.ts';
import { logoutWithoutSession } from './unpair.ts';

export function whatsappWorkerChannel(overrides: Partial<SessionOptions> = {}): ChannelAdapter {
  const options: SessionOptions = { ...defaultSessionOptions, live: liveConnections(), ...overrides };
  return {
    ...whatsappChannel,
    send: sendThrough(options.live),
    sessions: {
      ...whatsappChannel.sessions!,
      open(context) {
        const session = new WhatsAppSession(context, options);
        session.start();
        return session;
      },
      logoutWithoutSession: (ports, connection) => logoutWithoutSession(ports, connection, options),
    },
  };
}
