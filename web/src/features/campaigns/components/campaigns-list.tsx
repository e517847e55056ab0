import { Link } from 'react-router';
import { Megaphone, Plus } from 'lucide-react';
import type { Campaign, CampaignStatus } from '#contracts/campaigns.ts';
import { ButtonLink } from '#web/components/ui/button.tsx';
import { Alert, Badge, Card } from '#web/components/ui/misc.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { useSession } from '#web/lib/auth.ts';
import { formatDateTime } from '#web/lib/format.ts';
import { useCampaigns } from '#web/features/campaigns/api/campaigns.ts';
import { campaignStatusLabels } from '#web/features/campaigns/campaign-form.ts';

const statusTones: Record<CampaignStatus, 'brand' | 'neutral' | 'success' | 'danger' | 'warning'> = {
  preparing: 'neutral',
  scheduled: 'neutral',
  running: 'brand',
  paused: 'warning',
  cancelled: 'danger',
  finished: 'success',
};

/** A campaign's status as a coloured badge ('Enviando', 'Concluída'...). */
export function CampaignStatusBadge({ status }: { status: CampaignStatus }) {
  return <Badge tone={statusTones[status] ?? 'neutral'}>{campaignStatusLabels[status] ?? status}</Badge>;
}

function CampaignRow({ campaign }: { campaign: Campaign }) {
  const { counts } = campaign;
  return (
    <li data-testid="campaign-row">
      <Link
        to={`/campaigns/${campaign.id}`}
        className="flex flex-col gap-2 px-4 py-3 hover:bg-bg-subtle focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring sm:flex-row sm:items-center sm:justify-between"
      >
        <span className="min-w-0">
          <span className="block truncate text-sm font-medium text-fg">{campaign.name}</span>
          <span className="block text-xs text-fg-muted">Início {formatDateTime(campaign.startAt)}</span>
        </span>
        <span className="flex shrink-0 items-center gap-3">
          <span className="text-sm text-fg-muted tabular-nums">
            enviadas {counts.sent.toLocaleString('pt-BR')} de {counts.recipients.toLocaleString('pt-BR')}
          </span>
          <CampaignStatusBadge status={campaign.status} />
        </span>
      </Link>
    </li>
  );
}

/**
 * 'Campanhas' (/campaigns): the account's campaigns, newest first, with their status and how many
 * were sent; an empty state that says what a campaign is. Admins create them ('Nova campanha');
 * members read (docs/api.md#campaigns).
 */
export function CampaignsList() {
  const { user } = useSession();
  const admin = !!user?.isAdmin;
  const campaigns = useCampaigns();
  const rows = campaigns.data ?? [];

  return (
    <div className="mx-auto max-w-5xl space-y-6 px-4 py-8 sm:px-8">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight text-fg">Campanhas</h1>
          <p className="mt-1 text-sm text-fg-muted">Uma mensagem para muitos contatos, enviada aos poucos para proteger o seu número.</p>
        </div>
        {admin && rows.length > 0 ? (
          <ButtonLink to="/campaigns/new">
            <Plus className="size-4" aria-hidden="true" /> Nova campanha
          </ButtonLink>
        ) : null}
      </div>
      {campaigns.isError ? <Alert tone="danger">Não foi possível carregar as campanhas.</Alert> : null}
      {campaigns.isPending ? (
        <p className="flex items-center gap-2 text-sm text-fg-muted" role="status">
          <Spinner className="size-4 text-brand" /> Carregando...
        </p>
      ) : rows.length === 0 && !campaigns.isError ? (
        <Card className="flex flex-col items-center gap-3 px-6 py-12 text-center">
          <Megaphone className="size-10 text-brand" aria-hidden="true" />
          <h2 className="text-lg font-semibold text-fg">Nenhuma campanha ainda</h2>
          <p className="max-w-md text-sm text-fg-muted">
            Uma campanha envia a mesma mensagem para uma lista de contatos, como uma promoção ou um aviso, com o nome de cada um. Ela vai aos poucos, em
            intervalos e horários que você escolhe, para que o WhatsApp não bloqueie o seu número. Quem responder cai no Chat como qualquer conversa.
          </p>
          {admin ? (
            <ButtonLink to="/campaigns/new">
              <Plus className="size-4" aria-hidden="true" /> Nova campanha
            </ButtonLink>
          ) : (
            <p className="text-sm text-fg-muted">Só administradores podem criar campanhas.</p>
          )}
        </Card>
      ) : (
        <Card className="overflow-hidden">
          <ul className="divide-y divide-border" aria-label="Campanhas">
            {rows.map((campaign) => (
              <CampaignRow key={campaign.id} campaign={campaign} />
            ))}
          </ul>
        </Card>
      )}
    </div>
  );
}
