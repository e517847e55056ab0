import { MessageCircle, Send } from 'lucide-react';
import { serviceTypeLabels, type ServiceType } from '#contracts/service-labels.ts';
import { cn } from '#web/lib/cn.ts';

export function ServiceTypeIcon({ type, className }: { type: ServiceType | undefined; className?: string }) {
  const Icon = type === 'telegram' ? Send : MessageCircle;
  return (
    <Icon
      className={cn('size-4 shrink-0', type === 'telegram' ? 'text-sky-600 dark:text-sky-400' : 'text-emerald-600 dark:text-emerald-400', className)}
      aria-label={type ? serviceTypeLabels[type] : undefined}
      role="img"
    />
  );
}
