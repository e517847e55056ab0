import type { ReactNode } from 'react';
import { Link, Outlet } from 'react-router';
import { CheckCircle2 } from 'lucide-react';
import { Logo } from '#web/components/ui/logo.tsx';
import { ThemeToggle } from '#web/components/ui/theme-toggle.tsx';

const points = ['WhatsApp e Telegram na mesma caixa de entrada', 'Toda a equipe atendendo junto, sem trocar de celular', 'Histórico completo de cada cliente'];

/** The frame of the sign-in screens: a brand panel on wide screens and the form card. */
export function AuthLayout() {
  return (
    <div className="grid min-h-dvh lg:grid-cols-[minmax(0,5fr)_minmax(0,6fr)]">
      <aside className="relative hidden overflow-hidden bg-[#052e22] p-12 text-white lg:flex lg:flex-col lg:justify-between">
        <div className="auth-glow pointer-events-none absolute inset-0 opacity-60" aria-hidden="true" />
        <Link
          to="/"
          className="relative inline-flex w-fit rounded-lg text-white focus-visible:outline-2 focus-visible:outline-white"
          aria-label="Conversa — página inicial"
        >
          <span className="inline-flex items-center gap-2 text-lg font-semibold">
            <svg viewBox="0 0 32 32" className="size-8" aria-hidden="true">
              <rect width="32" height="32" rx="8" fill="#34d399" />
              <path
                d="M9 10.5A2.5 2.5 0 0 1 11.5 8h9A2.5 2.5 0 0 1 23 10.5v7a2.5 2.5 0 0 1-2.5 2.5H15l-4.2 3.4c-.5.4-1.3 0-1.3-.6V20A2.5 2.5 0 0 1 9 17.5z"
                fill="#052e22"
              />
            </svg>
            Conversa
          </span>
        </Link>
        <div className="relative max-w-md space-y-8">
          <p className="text-3xl leading-tight font-semibold tracking-tight">Todas as conversas com seus clientes, organizadas em um só lugar.</p>
          <ul className="space-y-3">
            {points.map((p) => (
              <li key={p} className="flex items-start gap-3 text-[15px] text-emerald-50/90">
                <CheckCircle2 className="mt-0.5 size-5 shrink-0 text-emerald-300" aria-hidden="true" />
                {p}
              </li>
            ))}
          </ul>
        </div>
        <figure className="relative max-w-md rounded-2xl border border-white/10 bg-white/5 p-5 backdrop-blur">
          <blockquote className="text-sm leading-relaxed text-emerald-50/90">
            “Em uma semana a equipe inteira já atendia pelo Conversa. Nenhum cliente fica mais sem resposta.”
          </blockquote>
          <figcaption className="mt-3 text-sm font-medium text-white">Mariana Couto · Ótica Visão Clara</figcaption>
        </figure>
      </aside>
      <div className="flex min-h-dvh flex-col">
        <header className="flex h-16 items-center justify-between px-4 sm:px-8">
          <Link to="/" className="rounded-lg focus-visible:outline-2 focus-visible:outline-ring lg:invisible" aria-label="Conversa — página inicial">
            <Logo />
          </Link>
          <ThemeToggle />
        </header>
        <main
          id="main-content"
          tabIndex={-1}
          className="flex flex-1 items-start justify-center px-4 pt-6 pb-16 focus:outline-none sm:items-center sm:px-8 sm:pt-0"
        >
          <div className="w-full max-w-[26rem]">
            <Outlet />
          </div>
        </main>
        <footer className="px-4 pb-6 text-center text-xs text-fg-muted sm:px-8">
          <Link to="/terms" className="underline-offset-4 hover:text-fg hover:underline">
            Termos de uso
          </Link>
          <span aria-hidden="true"> · </span>
          <Link to="/privacy" className="underline-offset-4 hover:text-fg hover:underline">
            Política de privacidade
          </Link>
          <span aria-hidden="true"> · </span>
          <Link to="/contact" className="underline-offset-4 hover:text-fg hover:underline">
            Ajuda
          </Link>
        </footer>
      </div>
    </div>
  );
}

/** The card heading shared by the auth screens. */
export function AuthHeading({ title, subtitle }: { title: string; subtitle?: ReactNode }) {
  return (
    <div className="mb-7 space-y-2">
      <h1 className="text-2xl font-semibold tracking-tight text-fg sm:text-[1.75rem]">{title}</h1>
      {subtitle ? <p className="text-sm leading-relaxed text-fg-muted">{subtitle}</p> : null}
    </div>
  );
}
