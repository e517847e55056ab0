import { lazy, Suspense } from 'react';
import { Hero } from '#web/features/marketing/components/hero.tsx';
import { usePageMeta } from '#web/lib/seo.ts';
import { useHydrated } from '#web/lib/use-hydrated.ts';

// What lies below the hero is its own chunk, fetched as the hero paints: the first view needs none of it.
// It is not prerendered either: the page's HTML holds the hero alone, so the first paint parses, styles
// and lays out only what a phone shows first; the sections render once the page is hydrated.
const Sections = lazy(() => import('#web/features/marketing/components/landing-below-fold.tsx'));

export default function LandingPage() {
  const hydrated = useHydrated();
  usePageMeta({
    title: 'Conversa — Atendimento por WhatsApp e Telegram em um só lugar',
    description:
      'Centralize as conversas de WhatsApp e Telegram da sua empresa em uma caixa de entrada compartilhada. Equipe, etiquetas e histórico completo. Comece grátis, sem cartão de crédito.',
  });
  return (
    <>
      <Hero />
      {hydrated ? (
        <Suspense fallback={null}>
          <Sections />
        </Suspense>
      ) : null}
    </>
  );
}
