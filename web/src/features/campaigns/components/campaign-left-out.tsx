import { useState } from 'react';
import { Link } from 'react-router';
import type { Campaign, CampaignOutcome } from '#contracts/campaigns.ts';
import { useConnections } from '#web/api/get-connections.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Alert, Card } from '#web/components/ui/misc.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { cn } from '#web/lib/cn.ts';
import { formatDateTime } from '#web/lib/format.ts';
import { useCampaignRecipients } from '#web/features/campaigns/api/campaigns.ts';

const outcomeLabels: Record<CampaignOutcome, string> = { skipped: 'Ignoradas', failed: 'Falharam' };

/** What an empty list says. */
const emptyTexts: Record<CampaignOutcome, string> = {
  skipped: 'Ninguém foi ignorado até agora.',
  failed: 'Nenhum envio falhou até agora.',
};

/**
 * 'Quem não recebeu': the recipients the campaign skipped when their turn came, or whose message
 * failed, each with why (GET /campaigns/{id}/recipients), a page at a time. Each name opens the
 * conversation; a contact deleted since shows as such.
 */
export function CampaignLeftOut({ campaign }: { campaign: Campaign }) {
  const { skipped, failed } = campaign.counts;
  const [chosen, setChosen] = useState<CampaignOutcome | null>(null);
  // The list shown: the one picked, else the one that has someone (ignored first).
  const outcome: CampaignOutcome = chosen ?? (skipped === 0 && failed > 0 ? 'failed' : 'skipped');
  const count = campaign.counts[outcome];
  const recipients = useCampaignRecipients(campaign.id, outcome, count);
  const connections = useConnections();
  const connectionName = (id: string) => connections.data?.data.find((s) => s.id === id)?.name ?? 'Conexão removida';
  const rows = recipients.data?.pages.flatMap((page) => page.data) ?? [];

  return (
    <Card className="space-y-4 p-4 sm:p-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-base font-semibold text-fg">Quem não recebeu</h2>
        {skipped + failed > 0 ? (
          <fieldset className="flex gap-1 rounded-lg bg-surface-2 p-0.5">
            <legend className="sr-only">Mostrar</legend>
            {(['skipped', 'failed'] as const).map((o) => (
              <button
                key={o}
                type="button"
                aria-pressed={o === outcome}
                onClick={() => setChosen(o)}
                className={cn(
                  'rounded-md border px-3 py-1 text-xs font-semibold whitespace-nowrap transition-colors focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring',
                  o === outcome ? 'border-brand bg-brand-soft text-brand-soft-fg shadow-sm' : 'border-transparent text-fg-muted hover:bg-surface hover:text-fg',
                )}
                data-testid={`left-out-${o}`}
              >
                {outcomeLabels[o]} ({campaign.counts[o].toLocaleString('pt-BR')})
              </button>
            ))}
          </fieldset>
        ) : null}
      </div>

      {skipped + failed === 0 ? (
        <p className="text-sm text-fg-muted">Todos os destinatários atendidos até agora receberam a mensagem.</p>
      ) : count === 0 ? (
        <p className="text-sm text-fg-muted">{emptyTexts[outcome]}</p>
      ) : recipients.isError ? (
        <Alert tone="danger">Não foi possível carregar a lista.</Alert>
      ) : !recipients.data ? (
        <p className="flex items-center gap-2 text-sm text-fg-muted" role="status">
          <Spinner className="size-4 text-brand" /> Carregando...
        </p>
      ) : (
        <>
          <ul className="divide-y divide-border" data-testid="left-out-list" aria-label={`${outcomeLabels[outcome]}: quem não recebeu`}>
            {rows.map((r) => (
              <li key={r.contactId} className="flex flex-col gap-1 py-3 sm:flex-row sm:items-start sm:justify-between sm:gap-4">
                <div className="min-w-0 space-y-0.5">
                  {r.name === null ? (
                    <p className="text-sm font-medium text-fg-muted">Contato excluído</p>
                  ) : (
                    <Link
                      to={`/inbox/${encodeURIComponent(r.contactId)}`}
                      className="text-sm font-medium break-words text-fg underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-ring"
                    >
                      {r.name}
                    </Link>
                  )}
                  <p className="text-sm break-words text-fg">{r.reason}</p>
                </div>
                <p className="shrink-0 text-xs text-fg-muted sm:text-right">
                  <span className="block">{connectionName(r.serviceId)}</span>
                  {r.at ? <span className="block tabular-nums">{formatDateTime(r.at)}</span> : null}
                </p>
              </li>
            ))}
          </ul>
          {rows.length === 0 && !recipients.hasNextPage ? <p className="text-sm text-fg-muted">{emptyTexts[outcome]}</p> : null}
          {recipients.hasNextPage ? (
            <Button variant="outline" loading={recipients.isFetchingNextPage} onClick={() => void recipients.fetchNextPage()}>
              Carregar mais
            </Button>
          ) : null}
        </>
      )}
    </Card>
  );
}
