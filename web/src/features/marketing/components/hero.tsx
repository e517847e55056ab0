import type { MouseEvent } from 'react';
import { ArrowRight, Check } from 'lucide-react';
import { ButtonLink, buttonClasses } from '#web/components/ui/button.tsx';
import { site } from '#web/config/site.ts';
import { HeroPreview } from './hero-preview.tsx';

/** Scrolls to an in-page section and moves the keyboard focus there, as a link would. */
function scrollToSection(event: MouseEvent<HTMLAnchorElement>, id: string) {
  const target = document.getElementById(id);
  if (!target) return;
  event.preventDefault();
  const reduced = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
  target.scrollIntoView({ behavior: reduced ? 'auto' : 'smooth', block: 'start' });
  window.history.replaceState(window.history.state, '', `#${id}`);
  target.focus({ preventScroll: true });
}

export function Hero() {
  return (
    <section aria-labelledby="hero-title" className="relative overflow-hidden px-4 pt-14 pb-20 sm:px-6 sm:pt-20 sm:pb-28">
      <div className="hero-glow pointer-events-none absolute inset-x-0 -top-40 -z-10 h-[38rem] opacity-70 dark:opacity-40" aria-hidden="true" />
      <div className="mx-auto max-w-6xl">
        <div className="mx-auto max-w-4xl text-center">
          <p className="inline-flex items-center gap-2 rounded-full border border-border bg-surface px-3 py-1 text-xs font-medium text-fg-muted shadow-sm sm:text-sm">
            <span className="size-1.5 rounded-full bg-brand" aria-hidden="true" />
            Mais de {site.companiesCount} empresas atendem pelo Conversa
          </p>
          <h1 id="hero-title" className="mt-6 text-[2.5rem] leading-[1.08] font-semibold tracking-[-0.03em] text-balance text-fg sm:text-6xl lg:text-[4.25rem]">
            WhatsApp e Telegram da sua empresa em <span className="text-brand">uma só caixa de entrada</span>
          </h1>
          <p className="mx-auto mt-6 max-w-2xl text-base leading-relaxed text-pretty text-fg-muted sm:text-lg">
            O Conversa reúne as mensagens dos seus clientes, distribui o atendimento entre a equipe e guarda o histórico de cada conversa. Tudo no navegador,
            sem instalar nada.
          </p>
          <div className="mt-9 flex flex-col items-stretch justify-center gap-3 sm:flex-row sm:items-center">
            <ButtonLink to="/register" size="lg">
              Começar Gratuitamente <ArrowRight className="size-4" aria-hidden="true" />
            </ButtonLink>
            {/* biome-ignore lint/a11y/useValidAnchor: a real in-page link to #how-it-works (works without JS, can be copied); the click only adds smooth scrolling and moves focus */}
            <a href="#how-it-works" onClick={(e) => scrollToSection(e, 'how-it-works')} className={buttonClasses('outline', 'lg')}>
              Como funciona
            </a>
          </div>
          <ul className="mt-6 flex flex-wrap justify-center gap-x-6 gap-y-2 text-sm text-fg-muted">
            {['Cadastro em menos de 2 minutos', 'Sem cartão de crédito', 'Plano gratuito para sempre'].map((t) => (
              <li key={t} className="flex items-center gap-1.5">
                <Check className="size-4 text-brand" aria-hidden="true" />
                {t}
              </li>
            ))}
          </ul>
        </div>
        <div className="mx-auto mt-14 max-w-5xl sm:mt-20">
          <HeroPreview />
        </div>
        <dl className="mx-auto mt-14 grid max-w-4xl grid-cols-2 gap-6 text-center sm:grid-cols-4">
          {[
            { value: String(site.foundedYear), label: 'no mercado desde' },
            { value: site.companiesServed, label: 'empresas atendidas' },
            { value: '< 2 min', label: 'para criar a conta' },
            { value: '2 canais', label: 'WhatsApp e Telegram' },
          ].map((s) => (
            <div key={s.label} className="flex flex-col-reverse gap-1">
              <dt className="text-sm text-fg-muted">{s.label}</dt>
              <dd className="text-2xl font-semibold tracking-tight text-fg sm:text-3xl">{s.value}</dd>
            </div>
          ))}
        </dl>
      </div>
    </section>
  );
}
