import { Navigate, Route, Routes, useParams } from 'react-router';
import { ServiceFormModal, ServiceQrModal, ServiceViewModal } from '#web/features/services/components/service-modals.tsx';
import { ServicesTable } from '#web/features/services/components/services-table.tsx';
import { useSession } from '#web/lib/auth.ts';
import { usePageMeta } from '#web/lib/seo.ts';
import { useBackToList } from '#web/lib/use-refresh-flag.ts';

const useBack = () => useBackToList('/services');

function AdminOnly({ children }: { children: React.ReactElement }) {
  const { user } = useSession();
  return user?.isAdmin ? children : <Navigate to="/services" replace />;
}

function Edit() {
  const { id } = useParams();
  const back = useBack();
  return <ServiceFormModal id={id} onClose={back.close} onSaved={back.saved} />;
}
function Create() {
  const back = useBack();
  return <ServiceFormModal onClose={back.close} onSaved={back.saved} />;
}
function Show() {
  const { id } = useParams();
  const back = useBack();
  return <ServiceViewModal id={id!} onClose={back.close} />;
}
function Qr() {
  const { id } = useParams();
  const back = useBack();
  return <ServiceQrModal id={id!} onClose={back.close} />;
}

/** /services with its modals: create, {id}/edit, {id}/show, {id}/qr-code. */
export default function ServicesPage() {
  usePageMeta({ title: 'Conexões', noindex: true });
  return (
    <>
      <ServicesTable />
      <Routes>
        <Route
          path="create"
          element={
            <AdminOnly>
              <Create />
            </AdminOnly>
          }
        />
        <Route
          path=":id/edit"
          element={
            <AdminOnly>
              <Edit />
            </AdminOnly>
          }
        />
        <Route
          path=":id/qr-code"
          element={
            <AdminOnly>
              <Qr />
            </AdminOnly>
          }
        />
        <Route path=":id/show" element={<Show />} />
        <Route path="*" element={null} />
      </Routes>
    </>
  );
}
