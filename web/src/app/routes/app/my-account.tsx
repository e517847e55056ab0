import { useEffect, useState } from 'react';
import { Navigate, Route, Routes, useLocation, useNavigate } from 'react-router';
import { KeyRound, Pencil } from 'lucide-react';
import { Button, ButtonLink } from '#web/components/ui/button.tsx';
import { Alert, Card } from '#web/components/ui/misc.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { useAccount } from '#web/features/account/api/get-account.ts';
import { useCreatePortalSession } from '#web/features/account/api/create-portal-session.ts';
import { AccountModal } from '#web/features/account/components/account-modal.tsx';
import { DataExport } from '#web/features/account/components/data-export.tsx';
import { ActivePlan, CheckoutPending, liveSubscription, UpgradePlan } from '#web/features/account/components/subscription.tsx';
import { useSession } from '#web/lib/auth.ts';
import { formatDate } from '#web/lib/format.ts';
import { usePageMeta } from '#web/lib/seo.ts';

function Loading({ text }: { text: string }) {
  return (
    <div className="flex min-h-[50vh] items-center justify-center gap-2 text-sm text-fg-muted" role="status">
      <Spinner className="size-4 text-brand" /> {text}
    </div>
  );
}

/** /my-account and /my-account/{id}/edit (docs/product.md#screens). */
export default function MyAccountPage() {
  usePageMeta({ title: 'Minha Conta', noindex: true });
  const { user } = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const portal = useCreatePortalSession();
  // Back from Stripe Checkout: the plan changes when the webhook lands (account.UPDATED).
  const params = new URLSearchParams(location.search);
  const checkoutReturn = params.get('checkout');
  const waitingFrom = useState(() => Date.now())[0];
  const [now, setNow] = useState(() => new Date());
  const account = useAccount(user?.accountId);
  const subscription = account.data ? liveSubscription(account.data) : null;
  const waiting = checkoutReturn === 'success' && params.has('session_id') && Boolean(account.data) && !subscription;
  useEffect(() => {
    if (!waiting) return;
    // Also read the account again now and then, in case the realtime event was missed.
    const timer = setInterval(() => {
      setNow(new Date());
      void account.refetch();
    }, 3000);
    return () => clearInterval(timer);
  }, [waiting, account]);

  const refresh = (location.state as { refresh?: boolean } | null)?.refresh;
  useEffect(() => {
    if (refresh) {
      void account.refetch();
      navigate(location.pathname, { replace: true, state: null });
    }
  }, [refresh, account, navigate, location.pathname]);

  if (!user) return <Loading text="Autenticando..." />;
  if (!account.data) return <Loading text="Carregando informações da conta..." />;
  const a = account.data;

  return (
    <div className="mx-auto max-w-5xl space-y-6 px-4 py-8 sm:px-8">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight text-fg">Minha Conta</h1>
          <p className="mt-1 text-sm text-fg-muted">Os dados da sua conta e a sua assinatura.</p>
        </div>
        {user.isAdmin ? (
          <ButtonLink to={`/my-account/${a.id}/edit`} variant="outline">
            <Pencil className="size-4" aria-hidden="true" /> Editar
          </ButtonLink>
        ) : null}
      </div>
      <Card className="flex flex-wrap items-center justify-between gap-4 p-6">
        <div>
          <p className="text-xs font-semibold tracking-wide text-fg-muted uppercase">Conta</p>
          <p className="mt-1 text-xl font-semibold text-fg">{a.name}</p>
          <p className="mt-1 text-sm text-fg-muted">Ativo desde {formatDate(a.createdAt)}</p>
        </div>
        {a.subscription && user.isAdmin ? (
          <Button variant="link" loading={portal.isPending} onClick={() => portal.mutate()}>
            Gerenciar assinatura
          </Button>
        ) : null}
      </Card>
      {checkoutReturn === 'success' && subscription ? (
        <Alert tone="success" title="Pagamento confirmado">
          Bem-vindo ao Plano Pro! Os novos limites já valem para a sua conta.
        </Alert>
      ) : null}
      {checkoutReturn === 'canceled' && !subscription ? (
        <Alert tone="info" title="Pagamento cancelado">
          Nenhuma cobrança foi feita. Você pode fazer o upgrade quando quiser.
        </Alert>
      ) : null}
      {subscription ? (
        <ActivePlan account={a} subscription={subscription} />
      ) : waiting ? (
        <CheckoutPending startedAt={waitingFrom} now={now} />
      ) : (
        <UpgradePlan account={a} canUpgrade={user.isAdmin} />
      )}
      {user.isAdmin ? <DataExport accountId={a.id} /> : null}
      {user.isAdmin ? (
        <Card className="flex flex-wrap items-center justify-between gap-4 p-6">
          <div>
            <h2 className="text-base font-semibold text-fg">Tokens de API</h2>
            <p className="mt-1 text-sm text-fg-muted">Conecte o n8n, o seu ERP ou outro sistema à API do Conversa.</p>
          </div>
          <ButtonLink to="/api-tokens" variant="outline">
            <KeyRound className="size-4" aria-hidden="true" /> Gerenciar tokens
          </ButtonLink>
        </Card>
      ) : null}
      <Routes>
        <Route
          path=":id/edit"
          element={user.isAdmin ? <AccountModal account={a} onClose={() => navigate('/my-account')} /> : <Navigate to="/my-account" replace />}
        />
        <Route path="*" element={null} />
      </Routes>
    </div>
  );
}
