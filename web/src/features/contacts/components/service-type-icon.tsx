import { serviceTypeLabels, type ServiceType } from '#contracts/service-labels.ts';
import { channelTypeStyle } from '#web/components/channel-type.ts';
import { cn } from '#web/lib/cn.ts';

export function ServiceTypeIcon({ type, className }: { type: ServiceType | undefined; className?: string }) {
  const { Icon, colour } = channelTypeStyle(type);
  return <Icon className={cn('size-4 shrink-0', colour, className)} aria-label={type ? serviceTypeLabels[type] : undefined} role="img" />;
}
