/** The adapters of a process, by connection type: what `ports.channels` answers. */
import type { ServiceType } from '#contracts/services.ts';
import type { ChannelAdapter } from './port.ts';

export interface Channels {
  get(type: ServiceType): ChannelAdapter | undefined;
  all(): readonly ChannelAdapter[];
}

export function channelRegistry(adapters: readonly ChannelAdapter[]): Channels {
  const byType = new Map<ServiceType, ChannelAdapter>();
  for (const adapter of adapters) {
    if (byType.has(adapter.type)) throw new Error(`Two channel adapters for ${adapter.type}`);
    byType.set(adapter.type, adapter);
  }
  return {
    get: (type) => byType.get(type),
    all: () => [...byType.values()],
  };
}
