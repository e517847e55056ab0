import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { CreatedAccount } from '#web/features/account/api/create-account.ts';
import { AuthHeading } from '#web/components/layouts/auth-layout.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { CreateAccountForm } from '#web/features/account/components/create-account-form.tsx';
import { useLogout } from '#web/features/auth/api/logout.ts';
import { switchAccount } from '#web/features/auth/api/switch-account.ts';
import { setSession, useSession } from '#web/lib/auth.ts';
import { reportError } from '#web/lib/errors.ts';
import { showToast } from '#web/lib/notify.ts';
import { usePageMeta } from '#web/lib/seo.ts';

export const accountCreatedText = (name: string) => `Conta ${name} criada com sucesso, logamos você nela`;

/** /accounts: a signed-in user with no account creates one, and the session moves into it. */
export default function AccountsPage() {
  usePageMeta({ title: 'Criar conta da empresa', noindex: true });
  const { user } = useSession();
  const navigate = useNavigate();
  const logout = useLogout();
  const [switching, setSwitching] = useState(false);

  const onCreated = async (account: CreatedAccount) => {
    setSwitching(true);
    try {
      // The create answer carries a session already moved into the new account (the old token no
      // longer resolves), so the switch call uses it; the session is stored once, with navigation.
      setSession(await switchAccount({ accountId: account.id }, { accessToken: account.accessToken }));
      showToast({ tone: 'success', title: accountCreatedText(account.name) });
      navigate('/my-account', { replace: true, state: { refresh: true } });
    } catch (error) {
      reportError(error);
    } finally {
      setSwitching(false);
    }
  };

  const firstName = user?.name.split(' ')[0];
  return (
    <>
      <AuthHeading
        title="Crie a conta da sua empresa"
        subtitle={
          <>
            {firstName ? `Olá, ${firstName}! ` : ''}Para começar a atender, dê um nome à conta da sua empresa. Depois você conecta o WhatsApp e o Telegram e
            convida a sua equipe.
          </>
        }
      />
      <CreateAccountForm onCreated={onCreated} busy={switching} />
      <p className="mt-8 text-center text-sm text-fg-muted">
        Entrou com o e-mail errado?{' '}
        <Button variant="link" className="font-medium" onClick={() => logout.mutate()} loading={logout.isPending}>
          Sair
        </Button>
      </p>
    </>
  );
}
