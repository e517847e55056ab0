import { MessageCircle, Send } from 'lucide-react';
import type { ServiceType } from '#contracts/services.ts';
import { cn } from '#web/lib/cn.ts';

/** WhatsApp (a speech bubble) or Telegram (a paper plane), in the channel's colour. */
export function ChannelIcon({ type, className }: { type: ServiceType | undefined; className?: string }) {
  return type === 'telegram' ? (
    <Send className={cn('size-3.5 text-sky-600 dark:text-sky-400', className)} aria-hidden="true" />
  ) : (
    <MessageCircle className={cn('size-3.5 text-emerald-600 dark:text-emerald-400', className)} aria-hidden="true" />
  );
}
