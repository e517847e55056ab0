import { useState } from 'react';
import { ArrowLeft, Ban, Pause, Play } from 'lucide-react';
import type { Campaign, CampaignCounts } from '#contracts/campaigns.ts';
import { Button, ButtonLink } from '#web/components/ui/button.tsx';
import { ConfirmDialog } from '#web/components/ui/confirm-dialog.tsx';
import { useConnections } from '#web/api/get-connections.ts';
import { Alert, Card } from '#web/components/ui/misc.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { useSession } from '#web/lib/auth.ts';
import { formatDateTime } from '#web/lib/format.ts';
import { showToast } from '#web/lib/notify.ts';
import { isActive, useCampaign, useMoveCampaign } from '#web/features/campaigns/api/campaigns.ts';
import { CampaignLeftOut } from './campaign-left-out.tsx';
import { CampaignStatusBadge } from './campaigns-list.tsx';

/** The counts the progress screen shows, in the order a campaign moves through them. */
const countLabels: [keyof CampaignCounts, string][] = [
  ['queued', 'Na fila'],
  ['sent', 'Enviadas'],
  ['delivered', 'Entregues'],
  ['read', 'Lidas'],
  ['failed', 'Falharam'],
  ['replied', 'Responderam'],
  ['optedOut', 'Descadastradas'],
  ['skipped', 'Ignoradas'],
];

/** What the screen says under the status: when it ends, or why it stopped. */
function finishText(campaign: Campaign): string {
  switch (campaign.status) {
    case 'finished':
      return `Concluída em ${formatDateTime(campaign.updatedAt)}`;
    case 'cancelled':
      return 'Cancelada: nenhuma mensagem sai mais desta campanha.';
    case 'paused':
      return 'Pausada: nada é enviado até você retomar.';
    case 'preparing':
      return 'Preparando a lista de destinatários...';
    default:
      return campaign.estimatedFinishAt ? `Término estimado ${formatDateTime(campaign.estimatedFinishAt)}` : 'Sem término estimado';
  }
}

function Actions({ campaign }: { campaign: Campaign }) {
  const move = useMoveCampaign(campaign.id);
  const [confirming, setConfirming] = useState(false);
  const act = (action: 'pause' | 'resume' | 'cancel', done: string) =>
    move.mutate(action, {
      onSuccess: () => {
        setConfirming(false);
        showToast({ tone: 'success', title: done });
      },
    });
  const canPause = campaign.status === 'scheduled' || campaign.status === 'running';
  return (
    <div className="flex flex-wrap gap-2">
      {canPause ? (
        <Button variant="outline" loading={move.isPending && move.variables === 'pause'} onClick={() => act('pause', 'Campanha pausada')}>
          <Pause className="size-4" aria-hidden="true" /> Pausar
        </Button>
      ) : null}
      {campaign.status === 'paused' ? (
        <Button loading={move.isPending && move.variables === 'resume'} onClick={() => act('resume', 'Campanha retomada')}>
          <Play className="size-4" aria-hidden="true" /> Retomar
        </Button>
      ) : null}
      {isActive(campaign.status) ? (
        <Button variant="outline" onClick={() => setConfirming(true)}>
          <Ban className="size-4" aria-hidden="true" /> Cancelar campanha
        </Button>
      ) : null}
      {confirming ? (
        <ConfirmDialog
          title="Cancelar a campanha?"
          message={`Ninguém mais recebe '${campaign.name}'. As mensagens já enviadas continuam enviadas; uma campanha cancelada não pode ser retomada.`}
          confirmLabel="Cancelar campanha"
          busy={move.isPending}
          onClose={() => setConfirming(false)}
          onConfirm={() => act('cancel', 'Campanha cancelada')}
        />
      ) : null}
    </div>
  );
}

/** Why a running campaign's connections do not send now (a connection down, a daily cap), by connection name. */
function WaitingLanes({ waiting }: { waiting: Campaign['waiting'] }) {
  const connections = useConnections();
  const nameOf = (serviceId: string) => connections.data?.data.find((s) => s.id === serviceId)?.name ?? 'Conexão removida';
  return (
    <Alert tone="warning" title="Envio parado em parte das conexões">
      <ul className="list-disc space-y-1 pl-5" data-testid="campaign-waiting">
        {waiting.map((w) => (
          <li key={w.serviceId}>
            <span className="font-medium">{nameOf(w.serviceId)}</span>: {w.reason}
          </li>
        ))}
      </ul>
    </Alert>
  );
}

/**
 * A campaign's progress (/campaigns/{id}): its status, a bar of the recipients already handled
 * (sent or ignored), the counts, the estimated finish, and for admins Pausar, Retomar and Cancelar.
 * Asked again every few seconds until it is finished or cancelled.
 */
export function CampaignProgress({ id }: { id: string }) {
  const { user } = useSession();
  const campaign = useCampaign(id);

  if (campaign.isError) return <Alert tone="danger">Não foi possível carregar a campanha.</Alert>;
  if (!campaign.data) {
    return (
      <p className="flex items-center gap-2 text-sm text-fg-muted" role="status">
        <Spinner className="size-4 text-brand" /> Carregando...
      </p>
    );
  }
  const c = campaign.data;
  const { counts } = c;
  const handled = Math.max(0, counts.recipients - counts.queued);
  const percent = counts.recipients ? Math.round((handled / counts.recipients) * 100) : c.status === 'finished' ? 100 : 0;

  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0 space-y-1">
          <h1 className="text-2xl font-semibold tracking-tight break-words text-fg">{c.name}</h1>
          <div className="flex flex-wrap items-center gap-2 text-sm text-fg-muted">
            <span data-testid="campaign-status">
              <CampaignStatusBadge status={c.status} />
            </span>
            <span>Início {formatDateTime(c.startAt)}</span>
          </div>
        </div>
        <ButtonLink to="/campaigns" variant="outline">
          <ArrowLeft className="size-4" aria-hidden="true" /> Campanhas
        </ButtonLink>
      </div>

      <Card className="space-y-4 p-4 sm:p-6">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 className="text-base font-semibold text-fg">Progresso</h2>
          <p className="text-sm text-fg-muted tabular-nums" aria-live="polite">
            enviadas {counts.sent.toLocaleString('pt-BR')} de {counts.recipients.toLocaleString('pt-BR')}
          </p>
        </div>
        <div
          role="progressbar"
          aria-label="Destinatários atendidos"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          aria-valuetext={`${percent}%: ${handled} de ${counts.recipients} destinatários`}
          className="h-3 overflow-hidden rounded-full bg-surface-2"
        >
          <div className="h-full rounded-full bg-brand transition-[width]" style={{ width: `${percent}%` }} />
        </div>
        <p className="text-sm text-fg-muted" data-testid="campaign-finish">
          {finishText(c)}
        </p>
        {c.waiting.length ? <WaitingLanes waiting={c.waiting} /> : null}
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
          {countLabels.map(([key, label]) => (
            <div key={key} className="rounded-xl bg-bg-subtle px-3 py-2">
              <dt className="text-xs text-fg-muted">{label}</dt>
              <dd className="text-lg font-semibold text-fg tabular-nums" data-testid={`count-${key}`}>
                {counts[key].toLocaleString('pt-BR')}
              </dd>
            </div>
          ))}
        </dl>
        {user?.isAdmin && isActive(c.status) ? <Actions campaign={c} /> : null}
      </Card>

      {c.status === 'preparing' ? null : <CampaignLeftOut campaign={c} />}

      <Card className="space-y-2 p-4 sm:p-6">
        <h2 className="text-base font-semibold text-fg">Mensagem</h2>
        {c.message.template ? (
          <p className="text-sm text-fg" data-testid="campaign-template-name">
            Modelo aprovado nas conexões da API oficial: <span className="font-medium">{c.message.template.name}</span>
            {c.message.template.language === 'pt_BR' ? '' : ` (${c.message.template.language})`}
          </p>
        ) : null}
        {c.message.template && !c.message.text ? null : (
          <p className="text-sm whitespace-pre-wrap text-fg">{c.message.text || (c.message.fileId ? 'Somente o arquivo anexado.' : 'Sem texto.')}</p>
        )}
        <p className="text-xs text-fg-muted">
          Intervalo de {c.pace.minGapSeconds} a {c.pace.maxGapSeconds} s entre envios, até {c.pace.dailyLimit} por dia e {c.pace.dailyNewChats} conversas novas
          por dia em cada número.
        </p>
      </Card>
    </div>
  );
}
