/**
 * The WhatsApp channel: Baileys sockets held by the channel worker, auth state in the table.
 * Baileys (some 200 ms to load) is imported only where a session opens, so the functions that
 * register this adapter to send or stop connections do not load it.
 */
import type { ChannelAdapter, SessionHolding } from '#domain/channels/port.ts';
import { whatsappLifecycle } from './lifecycle.ts';
import { sendWhatsApp } from './send.ts';

/** WhatsApp always needs a worker-held socket: every connection that should run, with a run, gets one. */
const whatsappSessions: SessionHolding = {
  wants: (connection) => Boolean(connection.runId),
  // 'Conectar com número de telefone': Baileys' requestPairingCode.
  pairsByPhoneNumber: true,
  open(context) {
    const opened = import('./session.ts').then(({ WhatsAppSession }) => {
      const session = new WhatsAppSession(context);
      session.start();
      return session;
    });
    opened.catch((error) => console.error(`[whatsapp] ${context.run.serviceId}: the session could not open`, error));
    return { stop: async () => (await opened).stop() };
  },
};

export const whatsappChannel: ChannelAdapter = {
  type: 'whatsapp',
  send: sendWhatsApp,
  lifecycle: whatsappLifecycle,
  sessions: whatsappSessions,
};
