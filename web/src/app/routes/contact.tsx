import { Clock, Mail, MapPin, Phone } from 'lucide-react';
import type { ReactNode } from 'react';
import { PageHero } from '#web/components/static-page.tsx';
import { WhatsAppIcon } from '#web/components/whatsapp-icon.tsx';
import { site, whatsappLink } from '#web/config/site.ts';
import { usePageMeta } from '#web/lib/seo.ts';

function InfoCard({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <li className="flex gap-4 rounded-2xl border border-border bg-surface p-6 shadow-card">
      <span className="flex size-11 shrink-0 items-center justify-center rounded-xl bg-brand-soft text-brand-soft-fg">{icon}</span>
      <div className="min-w-0">
        <h2 className="font-semibold text-fg">{title}</h2>
        <div className="mt-1.5 space-y-1 text-sm leading-relaxed text-fg-muted">{children}</div>
      </div>
    </li>
  );
}

const link = 'font-medium text-brand underline-offset-4 hover:underline break-words';

export default function ContactPage() {
  usePageMeta({
    title: 'Contato',
    description: `Fale com o time do Conversa por telefone, e-mail ou WhatsApp. Atendimento ${site.hours.toLowerCase()}.`,
  });
  return (
    <>
      <PageHero eyebrow="Contato" title="Fale com a gente">
        Tem uma dúvida sobre o produto, sobre o seu plano ou quer ajuda para configurar os canais? Escolha o jeito mais prático para você. Respondemos{' '}
        {site.hours.toLowerCase()}.
      </PageHero>
      <div className="mx-auto max-w-5xl px-4 py-14 sm:px-6 sm:py-20">
        <ul className="grid gap-5 md:grid-cols-2">
          <InfoCard icon={<Phone className="size-5" aria-hidden="true" />} title="Telefone">
            <p>
              <a className={link} href={site.phoneHref}>
                {site.phoneDisplay}
              </a>
            </p>
            <p>Ligação para São Paulo e região metropolitana.</p>
          </InfoCard>
          <InfoCard icon={<WhatsAppIcon className="size-5" />} title="WhatsApp">
            <p>
              <a className={link} href={whatsappLink()} target="_blank" rel="noopener noreferrer">
                Conversar pelo WhatsApp
              </a>
            </p>
            <p>O jeito mais rápido de falar com o nosso time.</p>
          </InfoCard>
          <InfoCard icon={<Mail className="size-5" aria-hidden="true" />} title="E-mail">
            <p>
              Comercial:{' '}
              <a className={link} href={`mailto:${site.email}`}>
                {site.email}
              </a>
            </p>
            <p>
              Suporte:{' '}
              <a className={link} href={`mailto:${site.supportEmail}`}>
                {site.supportEmail}
              </a>
            </p>
          </InfoCard>
          <InfoCard icon={<Clock className="size-5" aria-hidden="true" />} title="Horário de atendimento">
            <p className="font-medium text-fg">{site.hours}</p>
            <p>Inclusive sábados, domingos e feriados.</p>
          </InfoCard>
          <InfoCard icon={<MapPin className="size-5" aria-hidden="true" />} title="Endereço">
            <address className="not-italic">
              {site.address.street}
              <br />
              {site.address.city}, CEP {site.address.zip}
            </address>
            <p>Nosso time é remoto; atendimento presencial somente com horário marcado.</p>
          </InfoCard>
          <InfoCard
            icon={
              <span className="text-lg font-bold" aria-hidden="true">
                @
              </span>
            }
            title="Redes sociais"
          >
            <ul className="flex flex-wrap gap-x-4 gap-y-1">
              {site.social.map((s) => (
                <li key={s.label}>
                  <a className={link} href={s.href} target="_blank" rel="noopener noreferrer">
                    {s.label}
                  </a>
                </li>
              ))}
            </ul>
            <p>Novidades, dicas de atendimento e bastidores.</p>
          </InfoCard>
        </ul>
      </div>
    </>
  );
}
