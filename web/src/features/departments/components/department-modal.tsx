import { departmentPayload, type Department, type DepartmentPayload } from '#contracts/departments.ts';
import { Dialog } from '#web/components/ui/dialog.tsx';
import { FormActions } from '#web/components/ui/form-actions.tsx';
import { InputField } from '#web/components/ui/field.tsx';
import { DialogLoading, Spinner } from '#web/components/ui/spinner.tsx';
import { ApiError } from '#web/lib/api-client.ts';
import { useSchemaForm } from '#web/lib/form.ts';
import { showToast } from '#web/lib/notify.ts';
import { useDepartment, useSaveDepartment, useTeamUsers } from '#web/features/departments/api/departments.ts';

type Values = { name: string; userIds: string[] };

/** The users who belong to the department: one checkbox per active user (and any archived one already in it). */
function MembersPicker({ selected, register }: { selected: string[]; register: ReturnType<typeof useSchemaForm<Values, DepartmentPayload>>['register'] }) {
  const users = useTeamUsers();
  const rows = (users.data?.data ?? []).filter((u) => !u.archivedAt || selected.includes(u.id));
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium text-fg">Usuários do departamento</legend>
      <p className="text-xs text-fg-muted">Eles veem as conversas do departamento que ainda não têm atendente.</p>
      {users.isPending ? (
        <p className="flex items-center gap-2 text-sm text-fg-muted" role="status">
          <Spinner className="size-4 text-brand" /> Carregando usuários...
        </p>
      ) : (
        <ul className="max-h-56 space-y-1 overflow-y-auto rounded-lg border border-border p-2">
          {rows.map((user) => (
            <li key={user.id}>
              <label className="flex cursor-pointer items-center gap-2.5 rounded-md px-2 py-1.5 text-sm text-fg hover:bg-surface-2">
                <input type="checkbox" value={user.id} className="size-4 shrink-0 accent-brand" {...register('userIds')} />
                <span className="min-w-0 flex-1">
                  <span className="block truncate">{user.name}</span>
                  <span className="block truncate text-xs text-fg-muted">{user.email}</span>
                </span>
              </label>
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}

export function DepartmentForm({ department, onClose, onSaved }: { department?: Department; onClose: () => void; onSaved: () => void }) {
  const form = useSchemaForm<Values, DepartmentPayload>(departmentPayload, { name: department?.name ?? '', userIds: department?.userIds ?? [] }, 'department');
  const save = useSaveDepartment(department?.id);
  const onSubmit = form.handleSubmit((data) =>
    save.mutate(data, {
      onSuccess: () => {
        showToast({ tone: 'success', title: department ? 'Departamento atualizado' : 'Departamento criado' });
        onSaved();
      },
      onError: (error) => {
        if (error instanceof ApiError && error.details.length) form.setServerErrors(error.details);
      },
    }),
  );
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <InputField label="Nome" required autoComplete="off" maxLength={60} {...form.field('name')} />
      <MembersPicker selected={department?.userIds ?? []} register={form.register} />
      {form.formState.errors.userIds ? (
        <p className="text-xs font-medium text-danger" role="alert">
          {form.formState.errors.userIds.message ?? 'Usuário não encontrado'}
        </p>
      ) : null}
      <FormActions onCancel={onClose} saving={save.isPending} editing={!!department} />
    </form>
  );
}

/** 'Criar departamento' / 'Editar departamento'. */
export function DepartmentModal({ id, onClose, onSaved }: { id?: string; onClose: () => void; onSaved: () => void }) {
  const department = useDepartment(id);
  return (
    <Dialog open onClose={onClose} title={id ? 'Editar departamento' : 'Criar departamento'}>
      {id && !department.data ? (
        <DialogLoading />
      ) : (
        <DepartmentForm key={department.data?.id ?? 'new'} department={department.data} onClose={onClose} onSaved={onSaved} />
      )}
    </Dialog>
  );
}
