import { Navigate, Route, Routes, useParams } from 'react-router';
import { TagModal } from '#web/features/tags/components/tag-modal.tsx';
import { TagsTable } from '#web/features/tags/components/tags-table.tsx';
import { useSession } from '#web/lib/auth.ts';
import { usePageMeta } from '#web/lib/seo.ts';
import { useBackToList } from '#web/lib/use-refresh-flag.ts';

const useBack = () => useBackToList('/tags');

/** Creating and editing are for admins: a member typing the address lands back on the list. */
function Modal({ editing }: { editing: boolean }) {
  const { id } = useParams();
  const { user } = useSession();
  const back = useBack();
  if (!user?.isAdmin) return <Navigate to="/tags" replace />;
  return <TagModal id={editing ? id : undefined} onClose={back.close} onSaved={back.saved} />;
}

/** /tags with its modals: create, {id}/edit. */
export default function TagsPage() {
  usePageMeta({ title: 'Etiquetas', noindex: true });
  return (
    <>
      <TagsTable />
      <Routes>
        <Route path="create" element={<Modal editing={false} />} />
        <Route path=":id/edit" element={<Modal editing />} />
        <Route path="*" element={null} />
      </Routes>
    </>
  );
}
