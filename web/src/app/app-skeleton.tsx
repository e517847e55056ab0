/**
 * The signed-in app's frame as it first paints, before its JavaScript has run: the phone's top bar
 * (the sidebar's place on wide screens) and the screen's heading, where the real ones will be. The
 * build renders it into the shell (web/build/app-skeleton.ts), whose inline script (web/index.html)
 * picks the screen by setting `data-shell` on <html> for a signed-in path; the router shows the same
 * skeleton while the frame's and the screen's code load (router.tsx, app-shell.tsx), so the static
 * one gives way to an identical one and then to the screen, with nothing moving in between.
 * Placeholders only: nothing here can be pressed before it works.
 */
import { Menu, Moon, Sun } from 'lucide-react';
import { Logo, LogoMark } from '#web/components/ui/logo.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { cn } from '#web/lib/cn.ts';

/** The screens with a skeleton of their own; any other signed-in screen shows 'Carregando...'. */
export type SkeletonScreen = 'inbox' | 'contacts' | 'app';

/** The screen whose skeleton a path shows. */
export function skeletonScreenOf(pathname: string): SkeletonScreen {
  if (pathname === '/inbox' || pathname.startsWith('/inbox/')) return 'inbox';
  if (pathname === '/contacts' || pathname.startsWith('/contacts/')) return 'contacts';
  return 'app';
}

/** In the built shell every screen's part is there, shown by `data-shell`; in the app, only its own. */
const shown = {
  inbox: 'hidden in-data-[shell=inbox]:flex',
  contacts: 'hidden in-data-[shell=contacts]:block',
  app: 'hidden in-data-[shell=app]:flex',
} as const;

function Loading({ className }: { className?: string }) {
  return (
    <div className={cn('items-center justify-center gap-3 text-sm font-medium text-fg-muted', className)} role="status">
      <Spinner className="size-5 text-brand" />
      Carregando...
    </div>
  );
}

/** A screen's part of the skeleton, inside the frame's <main> (also the frame's fallback while a screen's code loads). */
export function ScreenSkeleton({ screen }: { screen?: SkeletonScreen }) {
  const part = (name: SkeletonScreen, own: string) => (screen === undefined ? shown[name] : screen === name ? own : null);
  const inbox = part('inbox', 'flex');
  const contacts = part('contacts', 'block');
  const app = part('app', 'flex');
  return (
    <>
      {inbox === null ? null : (
        // routes/app/inbox.tsx and the list's header (features/inbox/components/contact-list.tsx).
        <div className={cn('h-[calc(100dvh-3.5rem)] min-h-0 lg:h-dvh', inbox)}>
          <div className="h-full w-full shrink-0 lg:w-[22rem]">
            <div className="flex h-full min-h-0 flex-col border-r border-border bg-surface">
              <div className="border-b border-border p-3">
                <div className="flex items-center justify-between gap-2">
                  <h1 className="text-lg font-semibold tracking-tight text-fg">Chat</h1>
                  <span className="h-8 w-28 rounded-lg bg-surface-2" />
                </div>
                <div className="mt-3 h-9 rounded-lg bg-surface-2" />
                <div className="mt-3 h-9 rounded-lg bg-surface-2" />
              </div>
              <Loading className="flex flex-1" />
            </div>
          </div>
        </div>
      )}
      {contacts === null ? null : (
        // The list screens' header (components/ui/list-page.tsx) with the contacts table's texts.
        <div className={cn('mx-auto max-w-6xl px-4 py-8 sm:px-8', contacts)}>
          <div>
            <h1 className="text-2xl font-semibold tracking-tight text-fg">Contatos</h1>
            <p className="mt-1 text-sm text-fg-muted">Os clientes que falam com a sua empresa.</p>
          </div>
          <Loading className="mt-6 flex min-h-[40vh]" />
        </div>
      )}
      {app === null ? null : <Loading className={cn('min-h-[60vh]', app)} />}
    </>
  );
}

/** The frame (routes/app/app-shell.tsx) around the screen's skeleton. */
export function AppSkeleton({ screen, collapsed = false }: { screen?: SkeletonScreen; collapsed?: boolean }) {
  return (
    // In the built shell it shows only on a signed-in path (`data-shell`), else the shell's 'Carregando...' does.
    <div className={cn('min-h-dvh bg-bg-subtle', screen === undefined ? 'hidden in-data-[shell]:block lg:in-data-[shell]:flex' : 'lg:flex')}>
      <div
        className={cn(
          'sticky top-0 hidden h-dvh shrink-0 border-r border-border bg-surface lg:block',
          // The static shell follows the stored choice through `data-sidebar` (web/index.html).
          collapsed ? 'w-[4.5rem] px-3.5' : 'w-64 px-4 in-data-[sidebar=collapsed]:w-[4.5rem] in-data-[sidebar=collapsed]:px-3.5',
        )}
      >
        <div className={cn('flex h-16 items-center', collapsed && 'justify-center')}>
          <LogoMark />
        </div>
      </div>
      <header className="sticky top-0 z-30 flex h-14 items-center gap-2 border-b border-border bg-surface/90 px-3 backdrop-blur lg:hidden">
        <span className="flex size-10 items-center justify-center text-fg" aria-hidden="true">
          <Menu className="size-5" />
        </span>
        <Logo />
        <span className="ml-auto flex size-10 items-center justify-center text-fg-muted" aria-hidden="true">
          <Moon className="size-[18px] dark:hidden" />
          <Sun className="hidden size-[18px] dark:block" />
        </span>
      </header>
      <main className="min-w-0 flex-1">
        <ScreenSkeleton screen={screen} />
      </main>
    </div>
  );
}
