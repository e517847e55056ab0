import { useSession } from '../../../lib/auth.ts';
import { PlaceholderPage } from './placeholder.tsx';

export default function MyAccountPage() {
  const { user } = useSession();
  return (
    <PlaceholderPage title="Minha Conta" description="Os dados da sua conta e a sua assinatura.">
      {user?.account?.name ? (
        <p className="mt-6 rounded-lg bg-surface-2 px-4 py-2 text-sm text-fg">
          Conta atual: <strong className="font-semibold">{user.account.name}</strong>
        </p>
      ) : null}
    </PlaceholderPage>
  );
}
