import { ReportsScreen } from '#web/features/reports/components/reports-screen.tsx';
import { useSession } from '#web/lib/auth.ts';
import { usePageMeta } from '#web/lib/seo.ts';

export default function Reports() {
  const { user } = useSession();
  usePageMeta({ title: user?.isAdmin ? 'Relatórios' : 'Meus números', noindex: true });
  return (
    <div className="mx-auto max-w-6xl px-4 py-8 sm:px-8">
      <ReportsScreen />
    </div>
  );
}
