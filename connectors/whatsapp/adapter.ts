/** The WhatsApp channel: Baileys sockets held by the channel worker, auth state in the table. */
import type { ChannelAdapter } from '#domain/channels/port.ts';
import { whatsappLifecycle } from './lifecycle.ts';
import { sendWhatsApp } from './send.ts';
import { whatsappSessions } from './session.ts';

export const whatsappChannel: ChannelAdapter = {
  type: 'whatsapp',
  send: sendWhatsApp,
  lifecycle: whatsappLifecycle,
  sessions: whatsappSessions(),
};
