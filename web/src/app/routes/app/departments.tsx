import { AdminListPage } from '#web/app/admin-list-page.tsx';
import { DepartmentModal } from '#web/features/departments/components/department-modal.tsx';
import { DepartmentsTable } from '#web/features/departments/components/departments-table.tsx';

/** /departments with its modals: create, {id}/edit. */
export default function DepartmentsPage() {
  return <AdminListPage path="/departments" title="Departamentos" table={<DepartmentsTable />} Modal={DepartmentModal} />;
}
