import { cn } from '#web/lib/cn.ts';
import { initials } from '#web/lib/format.ts';

export function Avatar({ name, url, className }: { name: string; url?: string | null; className?: string }) {
  return url ? (
    <img src={url} alt="" className={cn('size-10 shrink-0 rounded-full object-cover', className)} loading="lazy" />
  ) : (
    <span
      className={cn('flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-soft text-sm font-semibold text-brand-soft-fg', className)}
      aria-hidden="true"
    >
      {initials(name)}
    </span>
  );
}
