import { Route, Routes, useNavigate, useParams } from 'react-router';
import { ContactModal } from '#web/features/contacts/components/contact-modal.tsx';
import { ContactsTable } from '#web/features/contacts/components/contacts-table.tsx';
import { usePageMeta } from '#web/lib/seo.ts';

function EditContact() {
  const { id } = useParams();
  const navigate = useNavigate();
  return <ContactModal id={id} onClose={() => navigate('/contacts')} onSaved={() => navigate('/contacts', { state: { refresh: true } })} />;
}

function CreateContact() {
  const navigate = useNavigate();
  return <ContactModal onClose={() => navigate('/contacts')} onSaved={() => navigate('/contacts', { state: { refresh: true } })} />;
}

/** /contacts, /contacts/create and /contacts/{id}/edit (the modals open over the list). */
export default function ContactsPage() {
  usePageMeta({ title: 'Contatos', noindex: true });
  return (
    <>
      <ContactsTable />
      <Routes>
        <Route path="create" element={<CreateContact />} />
        <Route path=":id/edit" element={<EditContact />} />
        <Route path="*" element={null} />
      </Routes>
    </>
  );
}
