import { accountPayload } from '#contracts/accounts.ts';
import type { Account } from '#contracts/entities.ts';
import { Dialog } from '#web/components/ui/dialog.tsx';
import { FormActions } from '#web/components/ui/form-actions.tsx';
import { InputField } from '#web/components/ui/field.tsx';
import { useSchemaForm } from '#web/lib/form.ts';
import { showToast } from '#web/lib/notify.ts';
import { useUpdateAccount } from '#web/features/account/api/update-account.ts';

/** /my-account/{id}/edit: 'Editar conta' (admins). */
export function AccountModal({ account, onClose }: { account: Account; onClose: () => void }) {
  const update = useUpdateAccount(account.id);
  const form = useSchemaForm(accountPayload, { name: account.name }, 'account-edit');
  const onSubmit = form.handleSubmit((data) =>
    update.mutate(data, {
      onSuccess: () => {
        showToast({ tone: 'success', title: 'Conta atualizada' });
        onClose();
      },
    }),
  );
  return (
    <Dialog open onClose={onClose} title={account.id ? 'Editar conta' : 'Criar conta'}>
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <InputField label="Nome da conta" required {...form.field('name')} />
        <FormActions onCancel={onClose} saving={update.isPending} editing />
      </form>
    </Dialog>
  );
}
