import { useEffect, useState } from 'react';
import { Link, NavLink, Outlet, useLocation } from 'react-router';
import { Menu, X } from 'lucide-react';
import { site } from '#web/config/site.ts';
import { useSession } from '#web/lib/auth.ts';
import { cn } from '#web/lib/cn.ts';
import { ButtonLink } from '#web/components/ui/button.tsx';
import { Logo } from '#web/components/ui/logo.tsx';
import { ThemeToggle } from '#web/components/ui/theme-toggle.tsx';

const sections = [
  { hash: 'features', label: 'Recursos' },
  { hash: 'how-it-works', label: 'Como funciona' },
  { hash: 'pricing', label: 'Preços' },
  { hash: 'testimonials', label: 'Depoimentos' },
  { hash: 'faq', label: 'Dúvidas' },
] as const;

function SectionLink({ hash, label, onClick, className }: { hash: string; label: string; onClick?: () => void; className?: string }) {
  return (
    <Link to={{ pathname: '/', hash }} onClick={onClick} className={className}>
      {label}
    </Link>
  );
}

function Header() {
  const { accessToken } = useSession();
  const [open, setOpen] = useState(false);
  const location = useLocation();

  // biome-ignore lint/correctness/useExhaustiveDependencies: the location is the trigger: navigating closes the menu
  useEffect(() => setOpen(false), [location.pathname, location.hash]);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false);
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);

  const navLink = 'rounded-md px-3 py-2 text-sm font-medium text-fg-muted transition-colors hover:text-fg focus-visible:outline-2 focus-visible:outline-ring';

  return (
    <header className="sticky top-0 z-30 border-b border-border/70 bg-bg/85 backdrop-blur-md supports-[backdrop-filter]:bg-bg/70">
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-4 px-4 sm:px-6">
        <Link to="/" className="rounded-lg focus-visible:outline-2 focus-visible:outline-ring" aria-label="Conversa — página inicial">
          <Logo />
        </Link>
        <nav aria-label="Principal" className="ml-6 hidden items-center lg:flex">
          {sections.map((s) => (
            <SectionLink key={s.hash} {...s} className={navLink} />
          ))}
        </nav>
        <div className="ml-auto flex items-center gap-1.5 sm:gap-2">
          <ThemeToggle />
          {accessToken ? (
            <ButtonLink to="/inbox" size="md">
              Ir para o app
            </ButtonLink>
          ) : (
            <div className="hidden items-center gap-2 sm:flex">
              <ButtonLink to="/login" variant="ghost" className="text-fg!">
                Entrar
              </ButtonLink>
              <ButtonLink to="/register">Começar Gratuitamente</ButtonLink>
            </div>
          )}
          <button
            type="button"
            className="flex size-10 items-center justify-center rounded-lg text-fg hover:bg-surface-2 focus-visible:outline-2 focus-visible:outline-ring lg:hidden"
            aria-expanded={open}
            aria-controls="marketing-mobile-menu"
            aria-label={open ? 'Fechar menu' : 'Abrir menu'}
            onClick={() => setOpen((v) => !v)}
          >
            {open ? <X className="size-5" aria-hidden="true" /> : <Menu className="size-5" aria-hidden="true" />}
          </button>
        </div>
      </div>
      <div id="marketing-mobile-menu" hidden={!open} className="border-t border-border bg-bg lg:hidden">
        <nav aria-label="Menu" className="mx-auto flex max-w-6xl flex-col gap-1 px-4 py-3 sm:px-6">
          {sections.map((s) => (
            <SectionLink
              key={s.hash}
              {...s}
              onClick={() => setOpen(false)}
              className="rounded-lg px-3 py-2.5 text-base font-medium text-fg hover:bg-surface-2"
            />
          ))}
          <NavLink to="/demo" className="rounded-lg px-3 py-2.5 text-base font-medium text-fg hover:bg-surface-2">
            Solicitar demonstração
          </NavLink>
          {accessToken ? null : (
            <div className="mt-2 grid grid-cols-2 gap-2 border-t border-border pt-3">
              <ButtonLink to="/login" variant="outline" size="lg">
                Entrar
              </ButtonLink>
              <ButtonLink to="/register" size="lg">
                Criar conta
              </ButtonLink>
            </div>
          )}
        </nav>
      </div>
    </header>
  );
}

const footerColumns = [
  {
    title: 'Produto',
    links: [
      { to: '/#features', label: 'Recursos' },
      { to: '/#how-it-works', label: 'Como funciona' },
      { to: '/#pricing', label: 'Preços' },
      { to: '/demo', label: 'Solicitar demonstração' },
      { to: '/docs/api', label: 'API para desenvolvedores' },
    ],
  },
  {
    title: 'Empresa',
    links: [
      { to: '/about', label: 'Sobre nós' },
      { to: '/contact', label: 'Contato' },
      { to: '/#faq', label: 'Perguntas frequentes' },
    ],
  },
  {
    title: 'Legal',
    links: [
      { to: '/terms', label: 'Termos de uso' },
      { to: '/privacy', label: 'Política de privacidade' },
      { to: '/cookies', label: 'Política de cookies' },
    ],
  },
];

function Footer() {
  return (
    <footer className="border-t border-border bg-bg-subtle">
      <div className="mx-auto grid max-w-6xl grid-cols-2 gap-10 px-4 py-14 sm:grid-cols-3 sm:px-6 md:grid-cols-[1.4fr_repeat(3,1fr)]">
        <div className="col-span-2 max-w-xs space-y-4 sm:col-span-3 md:col-span-1">
          <Logo />
          <p className="text-sm leading-relaxed text-fg-muted">
            A caixa de entrada compartilhada para pequenas e médias empresas atenderem clientes no WhatsApp e no Telegram, com a equipe toda no mesmo lugar.
          </p>
          <ul className="flex flex-wrap gap-x-4 gap-y-2 text-sm">
            {site.social.map((s) => (
              <li key={s.label}>
                <a href={s.href} target="_blank" rel="noopener noreferrer" className="text-fg-muted underline-offset-4 hover:text-fg hover:underline">
                  {s.label}
                </a>
              </li>
            ))}
          </ul>
        </div>
        {footerColumns.map((col) => (
          <nav key={col.title} aria-label={col.title}>
            <h2 className="text-sm font-semibold text-fg">{col.title}</h2>
            <ul className="mt-4 space-y-3 text-sm">
              {col.links.map((l) => (
                <li key={l.to}>
                  <Link to={l.to} className="text-fg-muted underline-offset-4 hover:text-fg hover:underline">
                    {l.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <div className="border-t border-border">
        <div className="mx-auto flex max-w-6xl flex-col gap-2 px-4 py-6 text-xs text-fg-muted sm:flex-row sm:items-center sm:justify-between sm:px-6">
          <p>© {new Date().getFullYear()} Conversa Tecnologia Ltda. Todos os direitos reservados.</p>
          <p>Feito com carinho por um time 100% remoto, de vários cantos do Brasil.</p>
        </div>
      </div>
    </footer>
  );
}

/** Header, content and footer of the public pages. */
export function MarketingLayout() {
  return (
    <div className="flex min-h-dvh flex-col">
      <Header />
      <main id="main-content" tabIndex={-1} className={cn('flex-1 focus:outline-none')}>
        <Outlet />
      </main>
      <Footer />
    </div>
  );
}
