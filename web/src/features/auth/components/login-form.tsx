import { useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { loginPayload, type AccountChoice, type SessionAnswer } from '#contracts/auth.ts';
import { Button } from '#web/components/ui/button.tsx';
import { InputField, PasswordField } from '#web/components/ui/field.tsx';
import { setSession } from '#web/lib/auth.ts';
import { useSchemaForm } from '#web/lib/form.ts';
import { useLogin } from '#web/features/auth/api/login.ts';
import { AccountChoiceDialog } from './account-choice-dialog.tsx';

export const accountChoiceTitle = 'Em qual conta deseja entrar';

export function LoginForm() {
  const navigate = useNavigate();
  const location = useLocation();
  const from = (location.state as { from?: string } | null)?.from;
  const login = useLogin();
  const [choices, setChoices] = useState<AccountChoice[] | null>(null);
  const [pendingAccountId, setPendingAccountId] = useState<string | null>(null);
  const form = useSchemaForm(loginPayload, { email: '', password: '' }, 'login');

  const finish = (answer: SessionAnswer) => {
    setSession(answer);
    const target = answer.user.accountId ? (from?.startsWith('/') ? from : '/inbox') : '/accounts';
    navigate(target, { replace: true });
  };

  const onSubmit = form.handleSubmit((data) => {
    login.mutate(
      { email: data.email, password: data.password },
      {
        onSuccess: (answer) => {
          if ('users' in answer) setChoices(answer.users);
          else finish(answer);
        },
      },
    );
  });

  const choose = (choice: AccountChoice) => {
    const parsed = loginPayload.safeParse(form.getValues());
    if (!parsed.success) return;
    setPendingAccountId(choice.accountId);
    login.mutate(
      { email: parsed.data.email, password: parsed.data.password, accountId: choice.accountId },
      {
        onSuccess: (answer) => {
          if ('users' in answer) return;
          setChoices(null);
          finish(answer);
        },
        onSettled: () => setPendingAccountId(null),
      },
    );
  };

  return (
    <>
      <form onSubmit={onSubmit} noValidate className="space-y-5">
        <InputField label="E-mail" type="email" autoComplete="email" inputMode="email" required {...form.field('email')} />
        <PasswordField
          label="Senha"
          autoComplete="current-password"
          required
          aside={
            <Link to="/forgot-password" className="text-sm font-medium text-brand underline-offset-4 hover:underline">
              Esqueceu a senha?
            </Link>
          }
          {...form.field('password')}
        />
        <Button type="submit" size="lg" className="w-full" loading={login.isPending && !pendingAccountId} loadingText="Entrando...">
          Entrar
        </Button>
      </form>
      <p className="mt-8 text-center text-sm text-fg-muted">
        Ainda não tem uma conta?{' '}
        <Link to="/register" className="font-medium text-brand underline-offset-4 hover:underline">
          Novo cadastro
        </Link>
      </p>
      <AccountChoiceDialog
        open={choices !== null}
        title={accountChoiceTitle}
        description="Seu e-mail está em mais de uma conta. Escolha onde deseja entrar agora."
        actionLabel="Logar"
        choices={choices ?? []}
        pendingAccountId={pendingAccountId}
        onChoose={choose}
        onClose={() => setChoices(null)}
      />
    </>
  );
}
