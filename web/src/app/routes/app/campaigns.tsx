import { Route, Routes, useParams } from 'react-router';
import { CampaignFormScreen } from '#web/features/campaigns/components/campaign-form-screen.tsx';
import { CampaignProgress } from '#web/features/campaigns/components/campaign-progress.tsx';
import { CampaignsList } from '#web/features/campaigns/components/campaigns-list.tsx';
import { usePageMeta } from '#web/lib/seo.ts';

function List() {
  usePageMeta({ title: 'Campanhas', noindex: true });
  return <CampaignsList />;
}

function New() {
  usePageMeta({ title: 'Nova campanha', noindex: true });
  return (
    <div className="mx-auto max-w-3xl px-4 py-8 sm:px-8">
      <CampaignFormScreen />
    </div>
  );
}

function Progress() {
  usePageMeta({ title: 'Campanha', noindex: true });
  const { id } = useParams();
  return (
    <div className="mx-auto max-w-4xl px-4 py-8 sm:px-8">
      <CampaignProgress key={id} id={id!} />
    </div>
  );
}

/** /campaigns ('Campanhas'), /campaigns/new ('Nova campanha') and /campaigns/{id} (its progress). */
export default function CampaignsPage() {
  return (
    <Routes>
      <Route path="new" element={<New />} />
      <Route path=":id" element={<Progress />} />
      <Route path="*" element={<List />} />
    </Routes>
  );
}
