import type { ServiceType } from '#contracts/services.ts';
import { channelTypeStyle } from '#web/components/channel-type.ts';
import { cn } from '#web/lib/cn.ts';

/** WhatsApp (a speech bubble), WhatsApp (API oficial) (a verified seal) or Telegram (a paper plane), in the channel's colour. */
export function ChannelIcon({ type, className }: { type: ServiceType | undefined; className?: string }) {
  const { Icon, colour } = channelTypeStyle(type);
  return <Icon className={cn('size-3.5', colour, className)} aria-hidden="true" />;
}
