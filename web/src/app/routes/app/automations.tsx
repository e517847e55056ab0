import { AutomationsScreen } from '#web/features/automations/components/automations-screen.tsx';
import { usePageMeta } from '#web/lib/seo.ts';

/** /automations: 'Automações'. */
export default function AutomationsPage() {
  usePageMeta({ title: 'Automações', noindex: true });
  return (
    <div className="mx-auto max-w-4xl space-y-6 px-4 py-8 sm:px-8">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight text-fg">Automações</h1>
        <p className="mt-1 text-sm text-fg-muted">Mensagens automáticas, distribuição das conversas, inatividade e avaliação do atendimento.</p>
      </div>
      <AutomationsScreen />
    </div>
  );
}
