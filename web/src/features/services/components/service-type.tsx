import { MessageCircle, Send } from 'lucide-react';
import { serviceTypeLabels } from '#contracts/service-labels.ts';
import type { ServiceType as ServiceTypeName } from '#contracts/services.ts';

export function ServiceType({ type }: { type: ServiceTypeName }) {
  const Icon = type === 'telegram' ? Send : MessageCircle;
  return (
    <span className="inline-flex items-center gap-2">
      <Icon className={type === 'telegram' ? 'size-4 text-sky-600 dark:text-sky-400' : 'size-4 text-emerald-600 dark:text-emerald-400'} aria-hidden="true" />
      {serviceTypeLabels[type]}
    </span>
  );
}
