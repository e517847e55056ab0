import { Moon, Sun } from 'lucide-react';
import { toggleTheme, useTheme } from '#web/lib/theme.ts';
import { cn } from '#web/lib/cn.ts';

/**
 * Switches light/dark; the label says what a press will do. The icon and the visible label follow
 * the `dark` class of the page (set before the first paint), not the theme in React's state, so a
 * prerendered page shows the right ones before it is hydrated.
 */
export function ThemeToggle({ className, withLabel = false }: { className?: string; withLabel?: boolean }) {
  const theme = useTheme();
  const next = theme === 'dark' ? 'claro' : 'escuro';
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
      <Moon className="size-[18px] dark:hidden" aria-hidden="true" />
      <Sun className="hidden size-[18px] dark:block" aria-hidden="true" />
      {withLabel ? (
        <>
          <span className="dark:hidden">Tema escuro</span>
          <span className="hidden dark:inline">Tema claro</span>
        </>
      ) : null}
    </button>
  );
}
