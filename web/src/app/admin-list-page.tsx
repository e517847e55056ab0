import type { ComponentType, ReactNode } from 'react';
import { Navigate, Route, Routes, useParams } from 'react-router';
import { useSession } from '#web/lib/auth.ts';
import { usePageMeta } from '#web/lib/seo.ts';
import { useBackToList } from '#web/lib/use-refresh-flag.ts';

type EntityModal = ComponentType<{ id?: string; onClose: () => void; onSaved: () => void }>;

/** Creating and editing are for admins: a member typing the address lands back on the list. */
function AdminModal({ path, Modal, editing }: { path: string; Modal: EntityModal; editing: boolean }) {
  const { id } = useParams();
  const { user } = useSession();
  const back = useBackToList(path);
  if (!user?.isAdmin) return <Navigate to={path} replace />;
  return <Modal id={editing ? id : undefined} onClose={back.close} onSaved={back.saved} />;
}

/** The page of an admin list at `path` (departments, tags, quick replies) with its modals over the list: create, {id}/edit. */
export function AdminListPage({ path, title, table, Modal }: { path: string; title: string; table: ReactNode; Modal: EntityModal }) {
  usePageMeta({ title, noindex: true });
  return (
    <>
      {table}
      <Routes>
        <Route path="create" element={<AdminModal path={path} Modal={Modal} editing={false} />} />
        <Route path=":id/edit" element={<AdminModal path={path} Modal={Modal} editing />} />
        <Route path="*" element={null} />
      </Routes>
    </>
  );
}
