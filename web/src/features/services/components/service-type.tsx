import { serviceTypeLabels } from '#contracts/service-labels.ts';
import type { ServiceType as ServiceTypeName } from '#contracts/services.ts';
import { channelTypeStyle } from '#web/components/channel-type.ts';
import { cn } from '#web/lib/cn.ts';

export function ServiceType({ type }: { type: ServiceTypeName }) {
  const { Icon, colour } = channelTypeStyle(type);
  return (
    <span className="inline-flex items-center gap-2">
      <Icon className={cn('size-4 shrink-0', colour)} aria-hidden="true" />
      {serviceTypeLabels[type]}
    </span>
  );
}
