import { AdminListPage } from '#web/app/admin-list-page.tsx';
import { TagModal } from '#web/features/tags/components/tag-modal.tsx';
import { TagsTable } from '#web/features/tags/components/tags-table.tsx';

/** /tags with its modals: create, {id}/edit. */
export default function TagsPage() {
  return <AdminListPage path="/tags" title="Etiquetas" table={<TagsTable />} Modal={TagModal} />;
}
