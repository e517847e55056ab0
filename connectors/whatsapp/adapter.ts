/**
 * The WhatsApp channel as the functions register it (`functions/lib/channels.ts`): everything but
 * the socket. Sessions, and every send, run in the channel worker that holds the connection's
 * socket (`worker-adapter.ts`, which adds them); this module imports no Baileys code at all, so
 * the functions' bundles carry none (`adapter.test.ts` checks the bundle).
 */
import { ChannelSendError, type ChannelAdapter, type SessionHolding } from '#domain/channels/port.ts';
import { whatsappLifecycle } from './lifecycle.ts';

export const notLiveText = 'A conexão do WhatsApp não está ativa neste servidor. Tente de novo.';

/** WhatsApp always needs a worker-held socket: every connection that should run, with a run, gets one; its sends run there. */
const whatsappSessions: SessionHolding = {
  wants: (connection) => Boolean(connection.runId),
  // 'Conectar com número de telefone': Baileys' requestPairingCode.
  pairsByPhoneNumber: true,
  sendsInSession: true,
  // A number typed by hand is checked with `onWhatsApp` when its contact is made (lookup.ts, in the worker).
  checksContacts: true,
  open() {
    throw new Error('WhatsApp sessions open only in the channel worker (whatsappWorkerChannel)');
  },
};

export const whatsappChannel: ChannelAdapter = {
  type: 'whatsapp',
  // Sends are queued for the worker (`sendsInSession`); one that reaches a function anyway (a
  // request queued before a deploy) is asked to come back, and fails past dispatch's bounds.
  send: async () => {
    throw new ChannelSendError(notLiveText, { retryAfterSeconds: 5 });
  },
  lifecycle: whatsappLifecycle,
  sessions: whatsappSessions,
};
