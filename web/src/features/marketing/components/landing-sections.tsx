/** The landing page's sections below the hero: their own chunk, fetched as the hero paints (routes/landing.tsx). */
import type { ReactNode } from 'react';
import { Check, Headset, History, MessagesSquare, PlugZap, ShieldCheck, Tags, TrendingUp, UserPlus, Users, UsersRound } from 'lucide-react';
import { formatBRL, freePlan, proFallbackPriceCents, proPlanDefaults } from '#contracts/plans.ts';
import { Accordion } from '#web/components/ui/accordion.tsx';
import { ButtonLink } from '#web/components/ui/button.tsx';
import { cn } from '#web/lib/cn.ts';
import { site } from '#web/config/site.ts';

const count = (n: number) => n.toLocaleString('pt-BR');

function SectionHeading({ eyebrow, title, subtitle, id }: { eyebrow: string; title: string; subtitle?: string; id: string }) {
  return (
    <div className="mx-auto max-w-2xl text-center">
      <p className="text-sm font-semibold tracking-wide text-brand uppercase">{eyebrow}</p>
      <h2 id={id} className="mt-3 text-3xl font-semibold tracking-tight text-fg sm:text-4xl">
        {title}
      </h2>
      {subtitle ? <p className="mt-4 text-base leading-relaxed text-fg-muted sm:text-lg">{subtitle}</p> : null}
    </div>
  );
}

function Section({ id, labelledBy, className, children }: { id: string; labelledBy: string; className?: string; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={labelledBy} tabIndex={-1} className={cn('scroll-mt-16 px-4 py-20 focus:outline-none sm:px-6 sm:py-28', className)}>
      <div className="mx-auto max-w-6xl">{children}</div>
    </section>
  );
}

const features = [
  {
    icon: MessagesSquare,
    title: 'Atendimento multicanal',
    text: 'WhatsApp e Telegram lado a lado na mesma caixa de entrada. Responda com texto, fotos, documentos e áudios sem trocar de aplicativo.',
  },
  {
    icon: Users,
    title: 'Gestão de equipe',
    text: 'Vários atendentes no mesmo número, com departamentos, permissões e administradores. Cada conversa tem um responsável.',
  },
  {
    icon: Tags,
    title: 'Etiquetas',
    text: 'Marque clientes e conversas com etiquetas como “novo pedido”, “financeiro” ou “pós-venda” e encontre tudo em segundos.',
  },
  {
    icon: History,
    title: 'Histórico completo',
    text: 'Todas as mensagens de cada cliente ficam guardadas, mesmo quando outra pessoa da equipe assume o atendimento.',
  },
  {
    icon: ShieldCheck,
    title: 'Segurança dos dados',
    text: 'Conexões criptografadas, acesso individual por usuário e tratamento de dados de acordo com a LGPD.',
  },
  {
    icon: TrendingUp,
    title: 'Escalabilidade',
    text: 'Comece com um número e cresça para várias conexões e milhares de contatos, sem trocar de ferramenta.',
  },
];

export function Features() {
  return (
    <Section id="features" labelledBy="features-title" className="bg-bg-subtle">
      <SectionHeading
        id="features-title"
        eyebrow="Recursos"
        title="Tudo o que sua equipe precisa para atender bem"
        subtitle="Menos abas abertas, menos clientes esquecidos. O Conversa organiza o atendimento para você se concentrar em vender e resolver."
      />
      <ul className="mt-14 grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
        {features.map(({ icon: Icon, title, text }) => (
          <li key={title} className="rounded-2xl border border-border bg-surface p-6 shadow-card transition-shadow hover:shadow-pop">
            <span className="flex size-11 items-center justify-center rounded-xl bg-brand-soft text-brand-soft-fg">
              <Icon className="size-5" aria-hidden="true" />
            </span>
            <h3 className="mt-5 text-lg font-semibold text-fg">{title}</h3>
            <p className="mt-2 text-sm leading-relaxed text-fg-muted">{text}</p>
          </li>
        ))}
      </ul>
    </Section>
  );
}

const steps = [
  { icon: UserPlus, title: 'Cadastre-se grátis', text: 'Crie sua conta em menos de 2 minutos, sem cartão de crédito.' },
  { icon: PlugZap, title: 'Configure seus canais', text: 'Conecte o WhatsApp lendo um código QR e o Telegram com o token do seu bot.' },
  { icon: UsersRound, title: 'Organize sua equipe', text: 'Convide os atendentes, escolha os administradores e separe o time por departamentos.' },
  { icon: Headset, title: 'Comece a atender', text: 'Responda os clientes em tempo real, com toda a equipe trabalhando na mesma tela.' },
];

export function HowItWorks() {
  return (
    <Section id="how-it-works" labelledBy="how-title">
      <SectionHeading
        id="how-title"
        eyebrow="Como funciona"
        title="Do cadastro ao primeiro atendimento em minutos"
        subtitle="Sem instalação, sem servidor e sem treinamento demorado."
      />
      <ol className="mt-14 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
        {steps.map(({ icon: Icon, title, text }, i) => (
          <li key={title} className="relative rounded-2xl border border-border bg-surface p-6">
            <div className="flex items-center justify-between">
              <span className="flex size-11 items-center justify-center rounded-xl bg-brand text-brand-fg">
                <Icon className="size-5" aria-hidden="true" />
              </span>
              <span className="text-4xl font-semibold text-fg-subtle" aria-hidden="true">
                {String(i + 1).padStart(2, '0')}
              </span>
            </div>
            <h3 className="mt-5 text-lg font-semibold text-fg">
              <span className="sr-only">Passo {i + 1}: </span>
              {title}
            </h3>
            <p className="mt-2 text-sm leading-relaxed text-fg-muted">{text}</p>
          </li>
        ))}
      </ol>
    </Section>
  );
}

const testimonials = [
  {
    quote: 'Antes cada vendedor atendia no próprio celular e a gente perdia pedido. Hoje todo mundo responde pelo mesmo número e eu acompanho tudo de perto.',
    name: 'Rafael Menezes',
    role: 'Sócio da Casa Menezes Materiais de Construção',
    city: 'Campinas, SP',
  },
  {
    quote: 'Conectamos o WhatsApp e o Telegram da clínica em uma tarde. A recepção adorou ver o histórico de cada paciente antes de responder.',
    name: 'Juliana Prado',
    role: 'Diretora da Clínica Sorriso Pleno',
    city: 'Belo Horizonte, MG',
  },
  {
    quote: 'O preço cabe no bolso de uma loja pequena e o suporte responde rápido. Passamos a responder em minutos, não em horas.',
    name: 'Tiago Albuquerque',
    role: 'Fundador da Albuquerque Moda Praia',
    city: 'Recife, PE',
  },
];

export function Testimonials() {
  return (
    <Section id="testimonials" labelledBy="testimonials-title" className="bg-bg-subtle">
      <SectionHeading
        id="testimonials-title"
        eyebrow="Depoimentos"
        title="Quem usa, recomenda"
        subtitle="Pequenas e médias empresas de todo o Brasil já atendem melhor com o Conversa."
      />
      <ul className="mt-14 grid gap-5 lg:grid-cols-3">
        {testimonials.map((t) => (
          <li key={t.name}>
            <figure className="flex h-full flex-col rounded-2xl border border-border bg-surface p-7 shadow-card">
              <svg viewBox="0 0 24 24" className="size-7 text-brand" aria-hidden="true" fill="currentColor">
                <path d="M9.6 6C6.5 7.3 4.5 10 4.5 13.6V18h5.6v-5.2H7.4c0-2.2 1.2-3.8 3.2-4.7L9.6 6Zm9 0c-3.1 1.3-5.1 4-5.1 7.6V18h5.6v-5.2h-2.7c0-2.2 1.2-3.8 3.2-4.7L18.6 6Z" />
              </svg>
              <blockquote className="mt-4 flex-1 text-[15px] leading-relaxed text-fg">“{t.quote}”</blockquote>
              <figcaption className="mt-6 flex items-center gap-3 border-t border-border pt-5">
                <span
                  className="flex size-10 items-center justify-center rounded-full bg-brand-soft text-sm font-semibold text-brand-soft-fg"
                  aria-hidden="true"
                >
                  {t.name
                    .split(' ')
                    .map((p) => p[0])
                    .join('')}
                </span>
                <span>
                  <span className="block text-sm font-semibold text-fg">{t.name}</span>
                  <span className="block text-xs text-fg-muted">
                    {t.role} · {t.city}
                  </span>
                </span>
              </figcaption>
            </figure>
          </li>
        ))}
      </ul>
    </Section>
  );
}

function PlanFeature({ children }: { children: ReactNode }) {
  return (
    <li className="flex items-start gap-2.5 text-sm text-fg">
      <Check className="mt-0.5 size-4 shrink-0 text-brand" aria-hidden="true" />
      {children}
    </li>
  );
}

export function Pricing() {
  const price = formatBRL(proFallbackPriceCents);
  return (
    <Section id="pricing" labelledBy="pricing-title">
      <SectionHeading
        id="pricing-title"
        eyebrow="Preços"
        title="Um preço simples, sem surpresas"
        subtitle="Comece no plano gratuito e mude para o Pro quando a sua equipe crescer. Sem fidelidade: cancele quando quiser."
      />
      <div className="mx-auto mt-14 grid max-w-4xl gap-6 md:grid-cols-2">
        <article aria-labelledby="plan-free" className="flex flex-col rounded-2xl border border-border bg-surface p-8">
          <h3 id="plan-free" className="text-lg font-semibold text-fg">
            Gratuito
          </h3>
          <p className="mt-1 text-sm text-fg-muted">Para conhecer o Conversa e começar a organizar o atendimento.</p>
          <p className="mt-6 flex items-baseline gap-1">
            <span className="text-4xl font-semibold tracking-tight text-fg">{formatBRL(0)}</span>
            <span className="text-sm text-fg-muted">/mês</span>
          </p>
          <p className="mt-1 text-xs text-fg-muted">Sem cartão de crédito, para sempre</p>
          <ul className="mt-6 flex-1 space-y-3">
            <PlanFeature>{freePlan.connections} canal de atendimento</PlanFeature>
            <PlanFeature>{freePlan.users} usuário</PlanFeature>
            <PlanFeature>{count(freePlan.contacts)} contatos</PlanFeature>
            <PlanFeature>Histórico completo das conversas</PlanFeature>
          </ul>
          <ButtonLink to="/register" variant="outline" size="lg" className="mt-8 w-full">
            Começar Gratuitamente
          </ButtonLink>
        </article>
        <article aria-labelledby="plan-pro" className="relative flex flex-col rounded-2xl border-2 border-brand bg-surface p-8 shadow-pop">
          <span className="absolute -top-3 left-8 rounded-full bg-brand px-3 py-1 text-xs font-semibold text-brand-fg">Mais escolhido</span>
          <h3 id="plan-pro" className="text-lg font-semibold text-fg">
            Pro
          </h3>
          <p className="mt-1 text-sm text-fg-muted">Para equipes que atendem em vários canais todos os dias.</p>
          <p className="mt-6 flex items-baseline gap-1">
            <span className="text-4xl font-semibold tracking-tight text-fg">{price}</span>
            <span className="text-sm text-fg-muted">/mês</span>
          </p>
          <p className="mt-1 text-xs text-fg-muted">Cobrança mensal no cartão de crédito</p>
          <ul className="mt-6 flex-1 space-y-3">
            <PlanFeature>{proPlanDefaults.connections} canais de atendimento</PlanFeature>
            <PlanFeature>Até {proPlanDefaults.users} usuários</PlanFeature>
            <PlanFeature>{count(proPlanDefaults.contacts)} contatos</PlanFeature>
            <PlanFeature>Departamentos, permissões e etiquetas</PlanFeature>
            <PlanFeature>Histórico completo das conversas</PlanFeature>
          </ul>
          <ButtonLink to="/register" size="lg" className="mt-8 w-full">
            Começar Gratuitamente
          </ButtonLink>
        </article>
      </div>
    </Section>
  );
}

const faq = [
  {
    id: 'setup',
    title: 'Quanto tempo leva para configurar?',
    content:
      'Poucos minutos. O cadastro leva menos de 2 minutos e, para conectar o WhatsApp, basta ler um código QR com o celular da empresa. O Telegram é conectado com o token do seu bot.',
  },
  {
    id: 'install',
    title: 'Preciso instalar algum programa?',
    content: 'Não. O Conversa funciona direto no navegador, no computador ou no celular. Não há programa para instalar nem servidor para manter.',
  },
  {
    id: 'channels',
    title: 'Quais canais posso conectar?',
    content: 'WhatsApp e Telegram. Você pode ter mais de uma conexão, conforme o seu plano, e atender todas na mesma caixa de entrada.',
  },
  {
    id: 'billing',
    title: 'Como funciona a cobrança?',
    content: `O plano gratuito não tem custo e não pede cartão. O plano Pro custa ${formatBRL(proFallbackPriceCents)} por mês, com cobrança mensal no cartão de crédito.`,
  },
  {
    id: 'cancel',
    title: 'Posso cancelar quando quiser?',
    content: 'Sim. Não há fidelidade nem multa: você cancela pelo próprio painel e continua com acesso ao Pro até o fim do período já pago.',
  },
  {
    id: 'security',
    title: 'Meus dados estão seguros?',
    content: 'Sim. As conexões são criptografadas, cada empresa enxerga apenas os próprios dados e seguimos a Lei Geral de Proteção de Dados (LGPD).',
  },
];

export function Faq() {
  return (
    <Section id="faq" labelledBy="faq-title" className="bg-bg-subtle">
      <div className="grid gap-12 lg:grid-cols-[1fr_1.4fr]">
        <div>
          <p className="text-sm font-semibold tracking-wide text-brand uppercase">Dúvidas</p>
          <h2 id="faq-title" className="mt-3 text-3xl font-semibold tracking-tight text-fg sm:text-4xl">
            Perguntas frequentes
          </h2>
          <p className="mt-4 text-base leading-relaxed text-fg-muted">
            Não encontrou o que procurava?{' '}
            <a href={`mailto:${site.email}`} className="font-medium text-brand underline underline-offset-4">
              Escreva para a gente
            </a>{' '}
            ou veja outras formas na página de contato.
          </p>
        </div>
        <Accordion items={faq} />
      </div>
    </Section>
  );
}

export function ClosingCta() {
  return (
    <section aria-labelledby="cta-title" className="px-4 py-20 sm:px-6 sm:py-24">
      <div className="relative mx-auto max-w-5xl overflow-hidden rounded-3xl bg-[#052e22] px-6 py-14 text-center sm:px-12 sm:py-16">
        <div className="cta-glow pointer-events-none absolute inset-0" aria-hidden="true" />
        <h2 id="cta-title" className="relative text-3xl font-semibold tracking-tight text-balance text-white sm:text-4xl">
          Pronto para organizar o atendimento da sua empresa?
        </h2>
        <p className="relative mx-auto mt-4 max-w-xl text-base text-emerald-50/85">
          Junte-se a mais de {site.companiesCount} empresas que já atendem pelo Conversa. Crie sua conta grátis hoje mesmo.
        </p>
        <div className="relative mt-8 flex flex-col justify-center gap-3 sm:flex-row">
          <ButtonLink to="/register" size="lg" className="bg-emerald-400! text-[#03261b]! hover:bg-emerald-300!">
            Começar Gratuitamente
          </ButtonLink>
          <ButtonLink to="/demo" size="lg" variant="outline" className="border-white/30! bg-transparent! text-white! hover:bg-white/10!">
            Solicitar demonstração
          </ButtonLink>
        </div>
      </div>
    </section>
  );
}
