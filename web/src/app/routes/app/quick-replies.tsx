import { AdminListPage } from '#web/app/admin-list-page.tsx';
import { QuickReplyModal } from '#web/features/quick-replies/components/quick-reply-modal.tsx';
import { QuickRepliesTable } from '#web/features/quick-replies/components/quick-replies-table.tsx';

/** /quick-replies with its modals: create, {id}/edit. */
export default function QuickRepliesPage() {
  return <AdminListPage path="/quick-replies" title="Respostas rápidas" table={<QuickRepliesTable />} Modal={QuickReplyModal} />;
}
