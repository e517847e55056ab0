import { Navigate, Route, Routes, useParams } from 'react-router';
import { QuickReplyModal } from '#web/features/quick-replies/components/quick-reply-modal.tsx';
import { QuickRepliesTable } from '#web/features/quick-replies/components/quick-replies-table.tsx';
import { useSession } from '#web/lib/auth.ts';
import { usePageMeta } from '#web/lib/seo.ts';
import { useBackToList } from '#web/lib/use-refresh-flag.ts';

const useBack = () => useBackToList('/quick-replies');

/** Creating and editing are for admins: a member typing the address lands back on the list. */
function Modal({ editing }: { editing: boolean }) {
  const { id } = useParams();
  const { user } = useSession();
  const back = useBack();
  if (!user?.isAdmin) return <Navigate to="/quick-replies" replace />;
  return <QuickReplyModal id={editing ? id : undefined} onClose={back.close} onSaved={back.saved} />;
}

/** /quick-replies with its modals: create, {id}/edit. */
export default function QuickRepliesPage() {
  usePageMeta({ title: 'Respostas rápidas', noindex: true });
  return (
    <>
      <QuickRepliesTable />
      <Routes>
        <Route path="create" element={<Modal editing={false} />} />
        <Route path=":id/edit" element={<Modal editing />} />
        <Route path="*" element={null} />
      </Routes>
    </>
  );
}
