import { ArrowLeft } from 'lucide-react';
import { ButtonLink } from '#web/components/ui/button.tsx';
import { usePageMeta } from '#web/lib/seo.ts';

export default function NotFoundPage() {
  usePageMeta({ title: 'Página não encontrada', description: 'O endereço que você acessou não existe no Conversa.', noindex: true });
  return (
    <div className="flex min-h-[60vh] items-center justify-center px-4 py-20 sm:px-6">
      <div className="max-w-lg text-center">
        <p className="text-sm font-semibold text-brand">Erro 404</p>
        <h1 className="mt-3 text-3xl font-semibold tracking-tight text-fg sm:text-4xl">Página não encontrada</h1>
        <p className="mt-4 text-base leading-relaxed text-fg-muted">
          O endereço que você acessou não existe ou mudou de lugar. Confira se foi digitado corretamente ou volte para a página inicial.
        </p>
        <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
          <ButtonLink to="/" size="lg">
            <ArrowLeft className="size-4" aria-hidden="true" /> Voltar para o início
          </ButtonLink>
          <ButtonLink to="/contact" size="lg" variant="outline">
            Falar com o suporte
          </ButtonLink>
        </div>
      </div>
    </div>
  );
}
