/**
 * Which Channel sends for which connection type, and which control starts and stops it. With
 * CHANNEL_DOUBLE_URL set (tests), the HTTP test double takes every type; it sends but has no
 * control, so under it tokens are not checked and connections cannot be started.
 */
import type { ServiceType } from '#contracts/services.ts';
import type { ChannelControl } from '#domain/services/lifecycle.ts';
import type { Channel } from './channel.ts';
import { httpDoubleChannel } from './double/http-double-channel.ts';
import { telegramChannel } from './telegram/channel.ts';
import { telegramControl } from './telegram/control.ts';

const registered = new Map<ServiceType, Channel>();
const controls = new Map<ServiceType, ChannelControl>();

export function registerChannel(type: ServiceType, channel: Channel, control?: ChannelControl): void {
  registered.set(type, channel);
  if (control) controls.set(type, control);
}

export function channelFor(type: ServiceType): Channel | undefined {
  const double = process.env.CHANNEL_DOUBLE_URL;
  if (double) return httpDoubleChannel(double);
  return registered.get(type);
}

export function controlFor(type: ServiceType): ChannelControl | undefined {
  if (process.env.CHANNEL_DOUBLE_URL) return undefined;
  return controls.get(type);
}

registerChannel('telegram', telegramChannel, telegramControl);
