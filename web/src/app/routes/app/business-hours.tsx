import { BusinessHoursScreen } from '#web/features/business-hours/components/business-hours-screen.tsx';
import { usePageMeta } from '#web/lib/seo.ts';

/** /business-hours: 'Horário de atendimento'. */
export default function BusinessHoursPage() {
  usePageMeta({ title: 'Horário de atendimento', noindex: true });
  return (
    <div className="mx-auto max-w-4xl space-y-6 px-4 py-8 sm:px-8">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight text-fg">Horário de atendimento</h1>
        <p className="mt-1 text-sm text-fg-muted">Quando sua equipe atende. As mensagens automáticas de fora do horário seguem estes turnos.</p>
      </div>
      <BusinessHoursScreen />
    </div>
  );
}
