import { AlertTriangle, Check, Crown, Sparkles, Users, Cable, Contact } from 'lucide-react';
import type { Account, Subscription, Usage } from '#contracts/entities.ts';
import { errorTexts, shownMessage } from '#contracts/errors.ts';
import { effectiveLimits, formatBRL, freePlan, proFallbackPriceCents, proPlanDefaults, statusGrantsPlan } from '#contracts/plans.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Alert, Badge, Card } from '#web/components/ui/misc.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { formatDate } from '#web/lib/format.ts';
import { proProduct, useProducts } from '#web/features/account/api/get-products.ts';
import { useCreateCheckoutSession } from '#web/features/account/api/create-checkout-session.ts';
import { useUsage } from '#web/features/account/api/get-usage.ts';

/** Subscription status labels and colours (docs/product.md#entities-and-states). */
export function statusBadge(status: string) {
  switch (status) {
    case 'active':
      return <Badge tone="success">Ativa</Badge>;
    case 'canceled':
      return <Badge tone="danger">Cancelada</Badge>;
    case 'past_due':
      return <Badge tone="warning">Pagamento em atraso</Badge>;
    case 'trialing':
      return <Badge tone="brand">Período de teste</Badge>;
    default:
      return <Badge tone="neutral">{status}</Badge>;
  }
}

/** Whole days until the next charge (0 when it is today or past). */
export function daysUntil(epochSeconds: number, now: Date = new Date()): number {
  return Math.max(0, Math.ceil((epochSeconds * 1000 - now.getTime()) / 86_400_000));
}

/** Usage bar, capped at 100%. */
function UsageBar({ label, used, limit, icon }: { label: string; used: number; limit: number; icon: React.ReactNode }) {
  const percent = Math.min(100, limit > 0 ? Math.round((used / limit) * 100) : 0);
  return (
    <div className="space-y-1.5">
      <div className="flex items-center justify-between text-sm">
        <span className="flex items-center gap-2 text-fg">
          {icon}
          {label}
        </span>
        <span className="text-fg-muted tabular-nums">
          {used.toLocaleString('pt-BR')} / {limit.toLocaleString('pt-BR')}
        </span>
      </div>
      <div
        className="h-2 overflow-hidden rounded-full bg-surface-2"
        role="progressbar"
        aria-label={label}
        aria-valuenow={percent}
        aria-valuemin={0}
        aria-valuemax={100}
      >
        <div className={percent >= 90 ? 'h-full bg-warning' : 'h-full bg-brand'} style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}

/** The subscription the panel shows: one that still gives the paid plan (active, in trial, or in payment retries). */
export function liveSubscription(account: Account): Subscription | null {
  const sub = account.subscription;
  return sub && account.plan.productName !== freePlan.productName && statusGrantsPlan(sub.status) ? sub : null;
}

const dayWord = (days: number) => `${days} ${days === 1 ? 'dia' : 'dias'}`;

/** 'Plano Pro Ativo': status, price, next charge, period and usage. `now`: the clock (tests fix it). */
export function ActivePlan({ account, subscription, now = new Date() }: { account: Account; subscription: Subscription; now?: Date }) {
  const limits = effectiveLimits(account.plan);
  // Usage is read while the subscription gives the plan (not only while "active"; trial and
  // payment retries keep the plan too, and their bars would otherwise read 0).
  const usage = useUsage(account.id, statusGrantsPlan(subscription.status));
  const days = daysUntil(subscription.current_period_end, now);
  const ending = subscription.cancel_at_period_end;
  const price = `${formatBRL(subscription.plan.amount)} / ${subscription.plan.interval === 'year' ? 'ano' : 'mês'}`;
  const u: Usage | undefined = usage.data;
  return (
    <Card className="space-y-6 p-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="flex items-center gap-2 text-lg font-semibold text-fg">
          <Crown className="size-5 text-warning" aria-hidden="true" /> Plano Pro Ativo
        </h2>
        <div className="flex items-center gap-2 text-sm text-fg-muted">Status da Assinatura {statusBadge(subscription.status)}</div>
      </div>
      {ending ? (
        <Alert tone="warning" title="Cancelamento programado">
          A assinatura termina em {formatDate(subscription.current_period_end * 1000)}. Até lá, o Plano Pro continua valendo.
        </Alert>
      ) : null}
      {subscription.status === 'past_due' ? (
        <Alert tone="danger" title="Pagamento em atraso">
          Não conseguimos cobrar a última fatura. Atualize a forma de pagamento em 'Gerenciar assinatura' para manter o Plano Pro.
        </Alert>
      ) : null}
      {days > 0 && days <= 7 && !ending ? (
        <Alert tone="warning" title="Renovação em breve">
          Faltam {dayWord(days)} para a cobrança de {formatBRL(subscription.plan.amount)}.
        </Alert>
      ) : null}
      <dl className="grid gap-4 sm:grid-cols-3">
        <div className="rounded-xl bg-surface-2 p-4">
          <dt className="text-xs text-fg-muted">Valor</dt>
          <dd className="mt-1 text-lg font-semibold text-fg">{price}</dd>
        </div>
        <div className="rounded-xl bg-surface-2 p-4">
          <dt className="text-xs text-fg-muted">{ending ? 'Termina em' : 'Próxima cobrança'}</dt>
          <dd className="mt-1 text-lg font-semibold text-fg">{days === 0 ? 'Hoje' : dayWord(days)}</dd>
          <dd className="text-xs text-fg-muted">{formatDate(subscription.current_period_end * 1000)}</dd>
        </div>
        <div className="rounded-xl bg-surface-2 p-4">
          <dt className="text-xs text-fg-muted">Período atual</dt>
          <dd className="mt-1 text-sm font-medium text-fg">
            {formatDate(subscription.current_period_start * 1000)} a {formatDate(subscription.current_period_end * 1000)}
          </dd>
        </div>
      </dl>
      <section className="space-y-4">
        <h3 className="text-sm font-semibold text-fg">Uso Atual dos Recursos</h3>
        <UsageBar label="Usuários" used={u?.users ?? 0} limit={limits.users} icon={<Users className="size-4 text-fg-muted" aria-hidden="true" />} />
        <UsageBar label="Conexões" used={u?.connections ?? 0} limit={limits.connections} icon={<Cable className="size-4 text-fg-muted" aria-hidden="true" />} />
        <UsageBar label="Contatos" used={u?.contacts ?? 0} limit={limits.contacts} icon={<Contact className="size-4 text-fg-muted" aria-hidden="true" />} />
      </section>
    </Card>
  );
}

function PlanFeature({ children }: { children: React.ReactNode }) {
  return (
    <li className="flex items-start gap-2 text-sm text-fg">
      <Check className="mt-0.5 size-4 shrink-0 text-success" aria-hidden="true" />
      {children}
    </li>
  );
}

/**
 * The upgrade page: the current plan against Pro ('Recomendado'), and 'Fazer Upgrade Agora' (for
 * admins: checkout is theirs). Without payments configured on the server it says so and offers no
 * checkout; the Pro price falls back to R$ 99,90 while the provider's has not loaded.
 */
export function UpgradePlan({ account, canUpgrade }: { account: Account; canUpgrade: boolean }) {
  const current = effectiveLimits(account.plan);
  const products = useProducts(true);
  const pro = proProduct(products.data);
  const price = pro?.prices[0];
  const checkout = useCreateCheckoutSession();
  const notConfigured = products.isError && products.error.message === errorTexts.paymentsNotConfigured;
  const ended = account.subscription && !statusGrantsPlan(account.subscription.status) ? account.subscription : null;
  const n = (v: number) => v.toLocaleString('pt-BR');
  return (
    <div className="space-y-6">
      {notConfigured ? (
        <Alert tone="warning" title="Pagamentos não configurados">
          {shownMessage(errorTexts.paymentsNotConfigured)}
        </Alert>
      ) : null}
      <div className="grid gap-4 md:grid-cols-2">
        <Card className="p-6">
          <p className="text-xs font-semibold tracking-wide text-fg-muted uppercase">Plano atual</p>
          <h2 className="mt-1 text-xl font-semibold text-fg">{current.productName === 'Free' ? 'Gratuito' : current.productName}</h2>
          {current.productName === 'Free' ? (
            <p className="mt-1 text-2xl font-semibold text-fg">
              {formatBRL(0)}
              <span className="text-sm font-normal text-fg-muted"> / mês</span>
            </p>
          ) : (
            <p className="mt-1 text-sm text-fg-muted">Sem assinatura ativa</p>
          )}
          {ended ? <div className="mt-3 flex flex-wrap items-center gap-2 text-sm text-fg-muted">Status da Assinatura {statusBadge(ended.status)}</div> : null}
          <ul className="mt-5 space-y-2">
            <PlanFeature>
              {n(current.users ?? freePlan.users)} {current.users === 1 ? 'usuário' : 'usuários'}
            </PlanFeature>
            <PlanFeature>
              {n(current.connections)} {current.connections === 1 ? 'conexão' : 'conexões'}
            </PlanFeature>
            <PlanFeature>{n(current.contacts)} contatos</PlanFeature>
          </ul>
        </Card>
        <Card className="relative border-brand p-6 ring-1 ring-brand">
          <span className="absolute -top-3 right-6">
            <Badge tone="brand" className="shadow-sm">
              <Sparkles className="size-3" aria-hidden="true" /> Recomendado
            </Badge>
          </span>
          <p className="text-xs font-semibold tracking-wide text-brand uppercase">Pro</p>
          <h2 className="mt-1 text-xl font-semibold text-fg">Plano Pro</h2>
          <p className="mt-1 text-2xl font-semibold text-fg">
            {formatBRL(price?.unit_amount ?? proFallbackPriceCents)}
            <span className="text-sm font-normal text-fg-muted"> / mês</span>
          </p>
          <ul className="mt-5 space-y-2">
            <PlanFeature>Até {n(proPlanDefaults.users)} usuários</PlanFeature>
            <PlanFeature>{n(proPlanDefaults.connections)} conexões de WhatsApp e Telegram</PlanFeature>
            <PlanFeature>{n(proPlanDefaults.contacts)} contatos</PlanFeature>
          </ul>
          <Button
            size="lg"
            className="mt-6 w-full"
            loading={checkout.isPending}
            disabled={!canUpgrade || notConfigured}
            onClick={() => checkout.mutate(price?.id)}
          >
            Fazer Upgrade Agora
          </Button>
          {!canUpgrade ? <p className="mt-2 text-center text-xs text-fg-muted">Peça a um administrador da conta para fazer o upgrade.</p> : null}
        </Card>
      </div>
      <Card className="p-6">
        <h2 className="text-lg font-semibold text-fg">Por que escolher o Plano Pro?</h2>
        <div className="mt-4 grid gap-4 sm:grid-cols-3">
          <div>
            <Users className="size-5 text-brand" aria-hidden="true" />
            <h3 className="mt-2 text-sm font-semibold text-fg">Mais colaboradores</h3>
            <p className="mt-1 text-sm text-fg-muted">Até {proPlanDefaults.users} pessoas da sua equipe atendendo juntas.</p>
          </div>
          <div>
            <Cable className="size-5 text-brand" aria-hidden="true" />
            <h3 className="mt-2 text-sm font-semibold text-fg">Múltiplas conexões</h3>
            <p className="mt-1 text-sm text-fg-muted">Até {proPlanDefaults.connections} números de WhatsApp e bots de Telegram.</p>
          </div>
          <div>
            <Contact className="size-5 text-brand" aria-hidden="true" />
            <h3 className="mt-2 text-sm font-semibold text-fg">Base ampliada</h3>
            <p className="mt-1 text-sm text-fg-muted">Até {n(proPlanDefaults.contacts)} contatos sem arquivamento automático.</p>
          </div>
        </div>
      </Card>
      {products.isError && !notConfigured ? (
        <p className="flex items-center gap-2 text-xs text-fg-muted">
          <AlertTriangle className="size-3.5" aria-hidden="true" />
          Preço de referência; o valor final aparece no pagamento.
        </p>
      ) : null}
    </div>
  );
}

/** Seconds after which the wait for the payment's confirmation says it is taking long. */
const slowConfirmationSeconds = 60;

/**
 * Back from Checkout (`?checkout=success&session_id=`) before the webhook has brought the plan:
 * a clear wait. The page keeps the account live through `account.UPDATED`, and reads it again every
 * few seconds as well in case the event was missed.
 */
export function CheckoutPending({ startedAt, now = new Date() }: { startedAt: number; now?: Date }) {
  const slow = now.getTime() - startedAt > slowConfirmationSeconds * 1000;
  return (
    <Card className="flex flex-col items-center gap-3 p-10 text-center" role="status" aria-live="polite">
      <Spinner className="size-8 text-brand" />
      <h2 className="text-lg font-semibold text-fg">Confirmando o seu pagamento...</h2>
      <p className="max-w-md text-sm text-fg-muted">
        O pagamento foi recebido pela plataforma de cobrança. O Plano Pro aparece aqui assim que a confirmação chegar, em geral em poucos segundos.
      </p>
      {slow ? (
        <p className="max-w-md text-sm text-fg-muted">
          Está demorando mais que o normal. Você pode continuar usando o sistema: o plano muda sozinho quando a confirmação chegar.
        </p>
      ) : null}
    </Card>
  );
}
