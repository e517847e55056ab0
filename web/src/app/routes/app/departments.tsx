import { Navigate, Route, Routes, useParams } from 'react-router';
import { DepartmentModal } from '#web/features/departments/components/department-modal.tsx';
import { DepartmentsTable } from '#web/features/departments/components/departments-table.tsx';
import { useSession } from '#web/lib/auth.ts';
import { usePageMeta } from '#web/lib/seo.ts';
import { useBackToList } from '#web/lib/use-refresh-flag.ts';

const useBack = () => useBackToList('/departments');

/** Creating and editing are for admins: a member typing the address lands back on the list. */
function Modal({ editing }: { editing: boolean }) {
  const { id } = useParams();
  const { user } = useSession();
  const back = useBack();
  if (!user?.isAdmin) return <Navigate to="/departments" replace />;
  return <DepartmentModal id={editing ? id : undefined} onClose={back.close} onSaved={back.saved} />;
}

/** /departments with its modals: create, {id}/edit. */
export default function DepartmentsPage() {
  usePageMeta({ title: 'Departamentos', noindex: true });
  return (
    <>
      <DepartmentsTable />
      <Routes>
        <Route path="create" element={<Modal editing={false} />} />
        <Route path=":id/edit" element={<Modal editing />} />
        <Route path="*" element={null} />
      </Routes>
    </>
  );
}
