import { useEffect, useState, type ComponentType } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router';
import {
  BarChart3,
  Building2,
  Cable,
  Clock,
  Workflow,
  Megaphone,
  MessageSquareText,
  Network,
  Tags,
  ChevronsLeft,
  ChevronsRight,
  Contact,
  LogOut,
  Menu,
  MessageSquare,
  Users,
  Webhook,
} from 'lucide-react';
import { Dialog } from '#web/components/ui/dialog.tsx';
import { Logo } from '#web/components/ui/logo.tsx';
import { ThemeToggle } from '#web/components/ui/theme-toggle.tsx';
import { Tooltip } from '#web/components/ui/tooltip.tsx';
import { useLogout } from '#web/features/auth/api/logout.ts';
import { useSession } from '#web/lib/auth.ts';
import { cn } from '#web/lib/cn.ts';
import { connectRealtime } from '#web/lib/realtime.ts';
import { currentScreenShown } from '#web/lib/screen-code.ts';
import { storage, storageKeys } from '#web/lib/storage.ts';
import { useMediaQuery } from '#web/lib/use-media-query.ts';
import { useRealtimeSync } from '#web/app/realtime-sync.ts';

interface MenuItem {
  to: string;
  label: string;
  icon: ComponentType<{ className?: string; 'aria-hidden'?: boolean }>;
  /** The label a member reads instead (their own figures). */
  memberLabel?: string;
}

/** The sidebar menu of docs/product.md#screens (Sair is the logout button below it). */
export const menu: MenuItem[] = [
  { to: '/inbox', label: 'Chat', icon: MessageSquare },
  { to: '/contacts', label: 'Contatos', icon: Contact },
  { to: '/services', label: 'Conexões', icon: Cable },
  { to: '/users', label: 'Usuários', icon: Users },
  { to: '/departments', label: 'Departamentos', icon: Network },
  { to: '/tags', label: 'Etiquetas', icon: Tags },
  { to: '/quick-replies', label: 'Respostas rápidas', icon: MessageSquareText },
  { to: '/business-hours', label: 'Horário de atendimento', icon: Clock },
  { to: '/automations', label: 'Automações', icon: Workflow },
  { to: '/campaigns', label: 'Campanhas', icon: Megaphone },
  { to: '/reports', label: 'Relatórios', icon: BarChart3, memberLabel: 'Meus números' },
  { to: '/webhooks', label: 'Webhooks', icon: Webhook },
  { to: '/my-account', label: 'Minha Conta', icon: Building2 },
];

function initials(name: string | undefined): string {
  return (name ?? '?')
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((p) => p[0]?.toUpperCase())
    .join('');
}

function SidebarContent({ collapsed, onNavigate }: { collapsed: boolean; onNavigate?: () => void }) {
  const { user } = useSession();
  const logout = useLogout();
  const itemClass = ({ isActive }: { isActive: boolean }) =>
    cn(
      'flex h-10 items-center gap-3 rounded-lg text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-ring',
      collapsed ? 'w-10 justify-center' : 'px-3',
      isActive ? 'bg-brand-soft text-brand-soft-fg' : 'text-fg-muted hover:bg-surface-2 hover:text-fg',
    );

  return (
    <div className="flex h-full flex-col gap-4">
      <nav aria-label="Menu do aplicativo" className="flex-1">
        <ul className={cn('space-y-1', collapsed && 'flex flex-col items-center')}>
          {menu.map(({ to, label: adminLabel, memberLabel, icon: Icon }) => {
            const label = memberLabel && !user?.isAdmin ? memberLabel : adminLabel;
            return (
              <li key={to}>
                <Tooltip content={label} side="right" disabled={!collapsed} describe={false}>
                  <NavLink to={to} className={itemClass} onClick={onNavigate} aria-label={collapsed ? label : undefined}>
                    <Icon className="size-[18px] shrink-0" aria-hidden={true} />
                    {collapsed ? null : <span>{label}</span>}
                  </NavLink>
                </Tooltip>
              </li>
            );
          })}
        </ul>
      </nav>
      <div className={cn('space-y-2 border-t border-border pt-4', collapsed && 'flex flex-col items-center')}>
        <ThemeToggle withLabel={!collapsed} className={collapsed ? undefined : 'w-full'} />
        <Tooltip content="Sair" side="right" disabled={!collapsed} describe={false}>
          <button
            type="button"
            onClick={() => logout.mutate()}
            disabled={logout.isPending}
            aria-label={collapsed ? 'Sair' : undefined}
            className={cn(
              'flex h-10 items-center gap-3 rounded-lg text-sm font-medium text-fg-muted transition-colors hover:bg-surface-2 hover:text-fg focus-visible:outline-2 focus-visible:outline-ring',
              collapsed ? 'w-10 justify-center' : 'w-full px-3',
            )}
          >
            <LogOut className="size-[18px] shrink-0" aria-hidden="true" />
            {collapsed ? null : <span>Sair</span>}
          </button>
        </Tooltip>
        <div className={cn('flex items-center gap-3 rounded-lg pt-2', collapsed ? 'justify-center' : 'px-1')}>
          <span
            className="flex size-9 shrink-0 items-center justify-center rounded-full bg-brand-soft text-xs font-semibold text-brand-soft-fg"
            aria-hidden="true"
            title={collapsed ? user?.name : undefined}
          >
            {initials(user?.name)}
          </span>
          {collapsed ? (
            <span className="sr-only">
              {user?.name}, conta {user?.account?.name}
            </span>
          ) : (
            <span className="min-w-0">
              <span className="block truncate text-sm font-medium text-fg">{user?.name}</span>
              <span className="block truncate text-xs text-fg-muted">{user?.account?.name}</span>
            </span>
          )}
        </div>
      </div>
    </div>
  );
}

/** The signed-in frame: collapsible sidebar on desktop, a top bar and drawer menu on phones. */
export default function AppShell() {
  const { accessToken } = useSession();
  const location = useLocation();
  const [collapsed, setCollapsed] = useState(() => storage.get(storageKeys.sidebarCollapsed) === 'true');
  const [mobileOpen, setMobileOpen] = useState(false);
  // The sidebar shows from lg up; a phone does not render it at all (its menu is the drawer below),
  // which spares the first render of every screen its nav, tooltips and theme switch.
  const wide = useMediaQuery('(min-width: 1024px)');

  useRealtimeSync();
  useEffect(() => {
    // The screen's code may come after the shell's: the link's first ticket waits for it (lib/screen-code.ts).
    if (accessToken) connectRealtime(accessToken, currentScreenShown());
  }, [accessToken]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the pathname is the trigger: navigating closes the drawer menu
  useEffect(() => setMobileOpen(false), [location.pathname]);

  const toggleCollapsed = () => {
    setCollapsed((value) => {
      storage.set(storageKeys.sidebarCollapsed, String(!value));
      return !value;
    });
  };

  return (
    <div className="min-h-dvh bg-bg-subtle lg:flex">
      {wide ? (
        <aside
          className={cn(
            'sticky top-0 hidden h-dvh shrink-0 flex-col border-r border-border bg-surface transition-[width] duration-200 lg:flex',
            collapsed ? 'w-[4.5rem] px-3.5' : 'w-64 px-4',
          )}
          aria-label="Barra lateral"
        >
          <div className={cn('flex h-16 items-center', collapsed ? 'justify-center' : 'justify-between')}>
            <NavLink to="/inbox" className="rounded-lg focus-visible:outline-2 focus-visible:outline-ring" aria-label="Conversa — Chat">
              <Logo compact={collapsed} />
            </NavLink>
            {collapsed ? null : (
              <button
                type="button"
                onClick={toggleCollapsed}
                aria-expanded={true}
                aria-label="Recolher menu lateral"
                className="flex size-8 items-center justify-center rounded-lg text-fg-muted hover:bg-surface-2 hover:text-fg focus-visible:outline-2 focus-visible:outline-ring"
              >
                <ChevronsLeft className="size-4" aria-hidden="true" />
              </button>
            )}
          </div>
          {collapsed ? (
            <div className="mb-3 flex justify-center">
              <Tooltip content="Expandir menu lateral" side="right" describe={false}>
                <button
                  type="button"
                  onClick={toggleCollapsed}
                  aria-expanded={false}
                  aria-label="Expandir menu lateral"
                  className="flex size-8 items-center justify-center rounded-lg text-fg-muted hover:bg-surface-2 hover:text-fg focus-visible:outline-2 focus-visible:outline-ring"
                >
                  <ChevronsRight className="size-4" aria-hidden="true" />
                </button>
              </Tooltip>
            </div>
          ) : null}
          <div className="flex-1 pb-4">
            <SidebarContent collapsed={collapsed} />
          </div>
        </aside>
      ) : null}

      <header className="sticky top-0 z-30 flex h-14 items-center gap-2 border-b border-border bg-surface/90 px-3 backdrop-blur lg:hidden">
        <button
          type="button"
          onClick={() => setMobileOpen(true)}
          aria-label="Abrir menu"
          aria-expanded={mobileOpen}
          className="flex size-10 items-center justify-center rounded-lg text-fg hover:bg-surface-2 focus-visible:outline-2 focus-visible:outline-ring"
        >
          <Menu className="size-5" aria-hidden="true" />
        </button>
        <NavLink to="/inbox" className="rounded-lg focus-visible:outline-2 focus-visible:outline-ring" aria-label="Conversa — Chat">
          <Logo />
        </NavLink>
        <ThemeToggle className="ml-auto" />
      </header>
      <Dialog open={mobileOpen} onClose={() => setMobileOpen(false)} title="Menu" placement="left">
        <SidebarContent collapsed={false} onNavigate={() => setMobileOpen(false)} />
      </Dialog>

      <main id="main-content" tabIndex={-1} className="min-w-0 flex-1 focus:outline-none">
        <Outlet />
      </main>
    </div>
  );
}
