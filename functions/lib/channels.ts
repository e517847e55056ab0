/**
 * The channel adapters of the product: one registration line each. The Lambda functions and the
 * local runtime both start from this list; tests hand the local runtime their own adapters.
 */
import type { ChannelAdapter } from '#domain/channels/port.ts';
import { telegramChannel } from '#connectors/telegram/adapter.ts';
import { whatsappChannel } from '#connectors/whatsapp/adapter.ts';
import { whatsappCloudChannel } from '#connectors/whatsapp-cloud/adapter.ts';

export const productChannels: readonly ChannelAdapter[] = [telegramChannel, whatsappChannel, whatsappCloudChannel];
