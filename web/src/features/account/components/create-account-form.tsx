import { accountPayload } from '#contracts/accounts.ts';
import { Button } from '#web/components/ui/button.tsx';
import { InputField } from '#web/components/ui/field.tsx';
import { useSchemaForm } from '#web/lib/form.ts';
import { useCreateAccount, type CreatedAccount } from '#web/features/account/api/create-account.ts';

/** The account name form; `onCreated` runs after POST /accounts succeeds (and may be async). */
export function CreateAccountForm({ onCreated, busy = false }: { onCreated: (account: CreatedAccount) => void | Promise<void>; busy?: boolean }) {
  const create = useCreateAccount();
  const form = useSchemaForm(accountPayload, { name: '' }, 'account');

  const onSubmit = form.handleSubmit((data) => {
    create.mutate(data, { onSuccess: (account) => onCreated(account) });
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5">
      <InputField
        label="Nome da conta"
        autoComplete="organization"
        required
        placeholder="Ex.: Padaria Pão Dourado"
        hint="Normalmente, o nome da sua empresa. Você pode mudar depois."
        {...form.field('name')}
      />
      <Button type="submit" size="lg" className="w-full" loading={create.isPending || busy} loadingText="Criando conta...">
        Criar conta
      </Button>
    </form>
  );
}
