import { lazy, Suspense } from 'react';
import { Route, Routes, useParams } from 'react-router';
import { ContactsTable } from '#web/features/contacts/components/contacts-table.tsx';
import { usePageMeta } from '#web/lib/seo.ts';
import { useBackToList } from '#web/lib/use-refresh-flag.ts';

// The form (react-hook-form, the phone rules with libphonenumber's metadata, the country list) is
// fetched when a modal opens, not with the list: the list is what /contacts shows first.
const ContactModal = lazy(() => import('#web/features/contacts/components/contact-modal.tsx').then((m) => ({ default: m.ContactModal })));

function EditContact() {
  const { id } = useParams();
  const back = useBackToList('/contacts');
  return <ContactModal id={id} onClose={back.close} onSaved={back.saved} />;
}

function CreateContact() {
  const back = useBackToList('/contacts');
  return <ContactModal onClose={back.close} onSaved={back.saved} />;
}

// 'Importar contatos' (admins) is a screen of its own, fetched when opened.
const ContactImportScreen = lazy(() => import('#web/features/contacts/components/contact-import.tsx').then((m) => ({ default: m.ContactImportScreen })));

function ImportContacts() {
  usePageMeta({ title: 'Importar contatos', noindex: true });
  return (
    <Suspense fallback={null}>
      <ContactImportScreen />
    </Suspense>
  );
}

// 'Segmentos' (saved contact filters, ADR-0226) is a screen of its own too.
const SegmentsScreen = lazy(() => import('#web/features/contacts/components/segments-screen.tsx').then((m) => ({ default: m.SegmentsScreen })));

function Segments() {
  usePageMeta({ title: 'Segmentos', noindex: true });
  return (
    <Suspense fallback={null}>
      <SegmentsScreen />
    </Suspense>
  );
}

function ContactsList() {
  usePageMeta({ title: 'Contatos', noindex: true });
  return (
    <>
      <ContactsTable />
      <Suspense fallback={null}>
        <Routes>
          <Route path="create" element={<CreateContact />} />
          <Route path=":id/edit" element={<EditContact />} />
          <Route path="*" element={null} />
        </Routes>
      </Suspense>
    </>
  );
}

/** /contacts, /contacts/create and /contacts/{id}/edit (the modals open over the list), /contacts/import and /contacts/segments. */
export default function ContactsPage() {
  return (
    <Routes>
      <Route path="import" element={<ImportContacts />} />
      <Route path="segments" element={<Segments />} />
      <Route path="*" element={<ContactsList />} />
    </Routes>
  );
}
