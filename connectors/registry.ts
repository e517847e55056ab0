/**
 * Which Channel sends for which connection type. With CHANNEL_DOUBLE_URL set (tests), the HTTP
 * test double takes every type. The Telegram and WhatsApp adapters register here as they land.
 */
import type { ServiceType } from '#contracts/services.ts';
import type { Channel } from './channel.ts';
import { httpDoubleChannel } from './double/http-double-channel.ts';

const registered = new Map<ServiceType, Channel>();

export function registerChannel(type: ServiceType, channel: Channel): void {
  registered.set(type, channel);
}

export function channelFor(type: ServiceType): Channel | undefined {
  const double = process.env.CHANNEL_DOUBLE_URL;
  if (double) return httpDoubleChannel(double);
  return registered.get(type);
}
