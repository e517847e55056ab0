import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { resetPasswordForm, type AccountChoice } from '#contracts/auth.ts';
import { Button } from '#web/components/ui/button.tsx';
import { PasswordField } from '#web/components/ui/field.tsx';
import { useSchemaForm } from '#web/lib/form.ts';
import { showToast } from '#web/lib/notify.ts';
import { useResetPassword } from '#web/features/auth/api/reset-password.ts';
import { AccountChoiceDialog } from './account-choice-dialog.tsx';

export const resetChoiceTitle = 'Qual conta deseja alterar a senha?';
export const resetSuccessText = 'Senha alterada com sucesso, você será redirecionado para o login';
export const resetRedirectMs = 2000;

/**
 * Sets a new password from the e-mailed link. The session in the answer is not kept: the text
 * promises the login, so the person signs in with the new password.
 */
export function ResetPasswordForm({ email, verifyCode }: { email: string; verifyCode: string }) {
  const navigate = useNavigate();
  const reset = useResetPassword();
  const [choices, setChoices] = useState<AccountChoice[] | null>(null);
  const [pendingAccountId, setPendingAccountId] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const form = useSchemaForm(resetPasswordForm, { password: '', confirmPassword: '' }, 'reset');

  useEffect(() => () => clearTimeout(timer.current), []);

  const succeed = () => {
    setChoices(null);
    setDone(true);
    showToast({ tone: 'success', title: resetSuccessText });
    timer.current = setTimeout(() => navigate('/'), resetRedirectMs);
  };

  const send = (password: string, accountId?: string) =>
    reset.mutate(
      { email, verifyCode, password, ...(accountId ? { accountId } : {}) },
      {
        onSuccess: (answer) => {
          if ('accounts' in answer) setChoices(answer.accounts);
          else succeed();
        },
        onSettled: () => setPendingAccountId(null),
      },
    );

  const onSubmit = form.handleSubmit((data) => send(data.password));

  return (
    <>
      <form onSubmit={onSubmit} noValidate className="space-y-5">
        <PasswordField
          label="Nova senha"
          autoComplete="new-password"
          required
          hint="Mínimo de 6 caracteres. Senhas longas, com letras, números e símbolos, são mais seguras."
          {...form.field('password', { deps: ['confirmPassword'] })}
        />
        <PasswordField label="Confirme a nova senha" autoComplete="new-password" required {...form.field('confirmPassword')} />
        <Button type="submit" size="lg" className="w-full" loading={reset.isPending && !pendingAccountId} loadingText="Salvando..." disabled={done}>
          Redefinir senha
        </Button>
      </form>
      <AccountChoiceDialog
        open={choices !== null}
        title={resetChoiceTitle}
        description="Seu e-mail está em mais de uma conta. Escolha em qual delas a senha será alterada."
        actionLabel="Alterar"
        choices={choices ?? []}
        pendingAccountId={pendingAccountId}
        onChoose={(choice) => {
          setPendingAccountId(choice.accountId);
          send(form.getValues('password'), choice.accountId);
        }}
        onClose={() => setChoices(null)}
      />
    </>
  );
}
