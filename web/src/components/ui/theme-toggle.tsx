import { Moon, Sun } from 'lucide-react';
import { toggleTheme, useTheme } from '#web/lib/theme.ts';
import { cn } from '#web/lib/cn.ts';

/** Switches light/dark; the label says what a press will do. */
export function ThemeToggle({ className, withLabel = false }: { className?: string; withLabel?: boolean }) {
  const theme = useTheme();
  const next = theme === 'dark' ? 'claro' : 'escuro';
  const Icon = theme === 'dark' ? Sun : Moon;
  return (
    <button
      type="button"
      onClick={toggleTheme}
      aria-label={withLabel ? undefined : `Ativar tema ${next}`}
      className={cn(
        'inline-flex h-10 items-center gap-2 rounded-lg text-fg-muted transition-colors hover:bg-surface-2 hover:text-fg focus-visible:outline-2 focus-visible:outline-ring',
        withLabel ? 'px-3 text-sm font-medium' : 'w-10 justify-center',
        className,
      )}
    >
      <Icon className="size-[18px]" aria-hidden="true" />
      {withLabel ? <span>{`Tema ${next}`}</span> : null}
    </button>
  );
}
