import { ClosingCta, Faq, Features, Hero, HowItWorks, Pricing, Testimonials } from '#web/features/marketing/components/landing-sections.tsx';
import { usePageMeta } from '#web/lib/seo.ts';

export default function LandingPage() {
  usePageMeta({
    title: 'Conversa — Atendimento por WhatsApp e Telegram em um só lugar',
    description:
      'Centralize as conversas de WhatsApp e Telegram da sua empresa em uma caixa de entrada compartilhada. Equipe, etiquetas e histórico completo. Comece grátis, sem cartão de crédito.',
  });
  return (
    <>
      <Hero />
      <Features />
      <HowItWorks />
      <Testimonials />
      <Pricing />
      <Faq />
      <ClosingCta />
    </>
  );
}
