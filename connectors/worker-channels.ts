/**
 * The channel adapters of the channel worker's process (and of the local runtime, which hosts the
 * worker): the functions' list (`functions/lib/channels.ts`) with WhatsApp's sessions and sends,
 * which only run where the socket is. Installed with `installChannels` before the ports are built.
 * The Cloud API's adapter is listed for the local runtime's functions; it holds no session, so no
 * worker ever opens one for it and its sends stay on the send queue.
 */
import type { ChannelAdapter } from '#domain/channels/port.ts';
import { telegramChannel } from '#connectors/telegram/adapter.ts';
import type { SessionOptions } from '#connectors/whatsapp/session.ts';
import { waWebVersionSource } from '#connectors/whatsapp/version.ts';
import { whatsappWorkerChannel } from '#connectors/whatsapp/worker-adapter.ts';
import { whatsappCloudChannel } from '#connectors/whatsapp-cloud/adapter.ts';

/** WhatsApp's sessions present the current WhatsApp Web version (fetched when first needed), unless told otherwise. */
export function workerChannels(whatsapp: Partial<SessionOptions> = { version: waWebVersionSource() }): readonly ChannelAdapter[] {
  return [telegramChannel, whatsappWorkerChannel(whatsapp), whatsappCloudChannel];
}
