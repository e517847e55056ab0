import { Accessibility, Eye, Lightbulb, Sparkles, Star } from 'lucide-react';
import { PageHero } from '#web/components/static-page.tsx';
import { ButtonLink } from '#web/components/ui/button.tsx';
import { site } from '#web/config/site.ts';
import { usePageMeta } from '#web/lib/seo.ts';

const values = [
  { icon: Sparkles, title: 'Simplicidade', text: 'Se precisa de manual, ainda não está pronto. Cada tela é pensada para quem atende, não para quem programa.' },
  {
    icon: Accessibility,
    title: 'Acessibilidade',
    text: 'Um produto que todos conseguem usar: no celular ou no computador, com teclado, leitor de tela ou tema escuro.',
  },
  {
    icon: Lightbulb,
    title: 'Inovação',
    text: 'Acompanhamos de perto os canais que os brasileiros usam e trazemos o que há de novo sem complicar o dia a dia.',
  },
  { icon: Star, title: 'Excelência', text: 'Cuidamos dos detalhes: velocidade, estabilidade e um suporte que responde como gente de verdade.' },
  { icon: Eye, title: 'Transparência', text: 'Preço claro, sem fidelidade e sem letras miúdas. Você sabe o que paga e o que fazemos com os seus dados.' },
];

const team = [
  { area: 'Produto e design', text: 'Conversa com clientes toda semana e transforma o que ouve em telas simples.' },
  { area: 'Engenharia', text: 'Mantém o Conversa rápido, estável e seguro, do WhatsApp ao Telegram.' },
  { area: 'Sucesso do cliente', text: 'Ajuda cada empresa a configurar os canais e a tirar o máximo da ferramenta.' },
];

export default function AboutPage() {
  usePageMeta({
    title: 'Sobre nós',
    description: `Desde ${site.foundedYear}, o Conversa ajuda pequenas e médias empresas brasileiras a atender clientes pelo WhatsApp e pelo Telegram. Conheça nossa história, missão e valores.`,
  });
  return (
    <>
      <PageHero eyebrow="Sobre nós" title="Atendimento bom não deveria ser privilégio de empresa grande">
        O Conversa nasceu em {site.foundedYear} para dar às pequenas e médias empresas brasileiras a mesma organização no atendimento que as grandes têm, com
        uma ferramenta simples e um preço justo.
      </PageHero>

      <div className="mx-auto max-w-6xl space-y-20 px-4 py-16 sm:px-6 sm:py-20">
        <section aria-labelledby="story" className="grid gap-8 lg:grid-cols-[1fr_1.5fr]">
          <h2 id="story" className="text-2xl font-semibold tracking-tight text-fg">
            Nossa história
          </h2>
          <div className="space-y-4 text-[15px] leading-7 text-fg-muted">
            <p>
              Em {site.foundedYear}, muitos negócios passaram a vender e atender quase só pelo WhatsApp. Vimos de perto lojas, clínicas e prestadores de serviço
              com cinco celulares na bancada, mensagens sem resposta e clientes repetindo a mesma história para atendentes diferentes.
            </p>
            <p>
              Criamos o Conversa para resolver isso: uma caixa de entrada compartilhada, no navegador, em que toda a equipe atende pelo mesmo número e o
              histórico de cada cliente fica guardado. Depois veio o Telegram, as etiquetas, os departamentos e tudo o que nossos clientes foram pedindo.
            </p>
            <p>
              Hoje mais de {site.companiesCount} empresas de todo o Brasil atendem pelo Conversa, e seguimos do mesmo jeito: ouvindo quem usa e melhorando um
              pouco a cada semana.
            </p>
          </div>
        </section>

        <section aria-labelledby="mission" className="grid gap-8 rounded-3xl border border-border bg-bg-subtle p-8 sm:p-12 lg:grid-cols-[1fr_1.5fr]">
          <h2 id="mission" className="text-2xl font-semibold tracking-tight text-fg">
            Nossa missão
          </h2>
          <p className="text-xl leading-relaxed font-medium text-fg">
            Ajudar pequenas e médias empresas a responder cada cliente com rapidez e cuidado, em qualquer canal, sem complicação.
          </p>
        </section>

        <section aria-labelledby="values">
          <h2 id="values" className="text-2xl font-semibold tracking-tight text-fg">
            Nossos valores
          </h2>
          <ul className="mt-8 grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
            {values.map(({ icon: Icon, title, text }) => (
              <li key={title} className="rounded-2xl border border-border bg-surface p-6 shadow-card">
                <span className="flex size-10 items-center justify-center rounded-xl bg-brand-soft text-brand-soft-fg">
                  <Icon className="size-5" aria-hidden="true" />
                </span>
                <h3 className="mt-4 font-semibold text-fg">{title}</h3>
                <p className="mt-2 text-sm leading-relaxed text-fg-muted">{text}</p>
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="team" className="grid gap-8 lg:grid-cols-[1fr_1.5fr]">
          <div>
            <h2 id="team" className="text-2xl font-semibold tracking-tight text-fg">
              Nosso time
            </h2>
            <p className="mt-4 text-[15px] leading-7 text-fg-muted">
              Somos um time 100% remoto, espalhado pelo Brasil. Cada pessoa trabalha de onde vive melhor, e isso nos deixa mais perto dos nossos clientes, de
              norte a sul.
            </p>
          </div>
          <ul className="grid gap-4 sm:grid-cols-3">
            {team.map((t) => (
              <li key={t.area} className="rounded-2xl border border-border bg-surface p-5">
                <h3 className="font-semibold text-fg">{t.area}</h3>
                <p className="mt-2 text-sm leading-relaxed text-fg-muted">{t.text}</p>
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="commitment" className="rounded-3xl bg-[#052e22] p-8 text-center sm:p-12">
          <h2 id="commitment" className="text-2xl font-semibold tracking-tight text-white sm:text-3xl">
            Nosso compromisso com você
          </h2>
          <p className="mx-auto mt-4 max-w-2xl text-base leading-relaxed text-emerald-50/85">
            Tratar os dados da sua empresa com o cuidado que a LGPD exige, manter um preço justo e estar por perto quando você precisar, todos os dias das 8h às
            18h.
          </p>
          <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
            <ButtonLink to="/register" size="lg" className="bg-emerald-400! text-[#03261b]! hover:bg-emerald-300!">
              Começar Gratuitamente
            </ButtonLink>
            <ButtonLink to="/contact" size="lg" variant="outline" className="border-white/30! bg-transparent! text-white! hover:bg-white/10!">
              Fale com a gente
            </ButtonLink>
          </div>
        </section>
      </div>
    </>
  );
}
