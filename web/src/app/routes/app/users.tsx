import { Navigate, Route, Routes, useParams } from 'react-router';
import { UserFormModal, UserViewModal } from '#web/features/users/components/user-modals.tsx';
import { UsersTable } from '#web/features/users/components/users-table.tsx';
import { useSession } from '#web/lib/auth.ts';
import { usePageMeta } from '#web/lib/seo.ts';
import { useBackToList } from '#web/lib/use-refresh-flag.ts';

const useBack = () => useBackToList('/users');

function Create() {
  const { user } = useSession();
  const back = useBack();
  if (!user?.isAdmin) return <Navigate to="/users" replace />;
  return <UserFormModal onClose={back.close} onSaved={back.saved} />;
}
function Edit() {
  const { id } = useParams();
  const back = useBack();
  return <UserFormModal id={id} onClose={back.close} onSaved={back.saved} />;
}
function Show() {
  const { id } = useParams();
  const back = useBack();
  return <UserViewModal id={id!} onClose={back.close} />;
}

/** /users with its modals: create, {id}/edit, {id}/show. */
export default function UsersPage() {
  usePageMeta({ title: 'Usuários', noindex: true });
  return (
    <>
      <UsersTable />
      <Routes>
        <Route path="create" element={<Create />} />
        <Route path=":id/edit" element={<Edit />} />
        <Route path=":id/show" element={<Show />} />
        <Route path="*" element={null} />
      </Routes>
    </>
  );
}
