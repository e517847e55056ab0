import { z } from 'zod';
import type { Contact } from '#contracts/contacts.ts';
import { transferPayload, type TransferPayload } from '#contracts/conversations.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog } from '#web/components/ui/dialog.tsx';
import { SelectField, TextareaField } from '#web/components/ui/field.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { useSchemaForm } from '#web/lib/form.ts';
import { useTransferTargets } from '#web/features/inbox/api/get-transfer-targets.ts';

type Values = { userId: string; departmentId: string; note: string };

/** The form's empty choices are "none" for the contract. */
const schema = z.preprocess((v) => {
  const values = v as Values;
  return { ...values, userId: values.userId || null, departmentId: values.departmentId || null };
}, transferPayload);

/**
 * 'Transferir conversa': to a user, to a department's queue, or both, with an optional internal
 * note. Only active users and departments are offered. `onTransfer` answers whether it went
 * through; field messages of the server come back through `setErrors`.
 */
export function TransferDialog({
  contact,
  onClose,
  onTransfer,
}: {
  contact: Contact;
  onClose: () => void;
  onTransfer: (payload: TransferPayload, setErrors: (details: { path: string; message: string }[]) => void) => Promise<boolean>;
}) {
  const targets = useTransferTargets();
  const form = useSchemaForm<Values, TransferPayload>(
    schema as unknown as z.ZodType<TransferPayload, Values>,
    { userId: '', departmentId: '', note: '' },
    'transfer',
  );
  const onSubmit = form.handleSubmit(async (payload) => {
    if (await onTransfer(payload, form.setServerErrors)) onClose();
  });
  const current = contact.department?.name;
  return (
    <Dialog open onClose={onClose} title="Transferir conversa" description={`Escolha um usuário, um departamento ou os dois para atender ${contact.name}.`}>
      {targets.loading ? (
        <p className="flex items-center gap-2 text-sm text-fg-muted" role="status">
          <Spinner className="size-4 text-brand" /> Carregando...
        </p>
      ) : (
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          <SelectField
            label="Usuário"
            hint="Quem passa a atender. Sem ninguém, a conversa fica na fila do departamento."
            options={[{ value: '', label: 'Ninguém' }, ...targets.users.map((u) => ({ value: u.id, label: u.name }))]}
            {...form.field('userId')}
          />
          <SelectField
            label="Departamento"
            hint={current ? `Hoje a conversa está em ${current}.` : 'Hoje a conversa não tem departamento.'}
            options={[{ value: '', label: current ? `Manter ${current}` : 'Nenhum' }, ...targets.departments.map((d) => ({ value: d.id, label: d.name }))]}
            {...form.field('departmentId')}
          />
          <TextareaField
            label="Nota interna (opcional)"
            hint="Só a equipe vê a nota; ela não é enviada ao cliente."
            className="min-h-20"
            {...form.field('note')}
          />
          <div className="flex justify-end gap-2 pt-2">
            <Button variant="outline" onClick={onClose}>
              Cancelar
            </Button>
            <Button type="submit" loading={form.formState.isSubmitting}>
              Transferir
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
