import type { DurationFigures, ReportFigures } from '#contracts/reports.ts';
import { formatChange, formatCount, formatReportDuration, formatScore } from '#web/features/reports/report-format.ts';

interface CardSpec {
  id: string;
  label: string;
  value: string;
  detail?: string;
  change: string | null;
}

const durationCard = (id: string, label: string, now: DurationFigures, before: DurationFigures | undefined): CardSpec => ({
  id,
  label,
  value: formatReportDuration(now.median),
  detail: `mediana · p90 ${formatReportDuration(now.p90)}`,
  change: before ? formatChange(now.median, before.median) : null,
});

/** The period's cards (docs/product.md#reports), each with its change against the previous period when compared. */
export function SummaryCards({ totals, previous }: { totals: ReportFigures; previous?: ReportFigures }) {
  const cards: CardSpec[] = [
    { id: 'opened', label: 'Conversas abertas', value: formatCount(totals.opened), change: previous ? formatChange(totals.opened, previous.opened) : null },
    { id: 'resolved', label: 'Resolvidas', value: formatCount(totals.resolved), change: previous ? formatChange(totals.resolved, previous.resolved) : null },
    { id: 'waiting', label: 'Aguardando', value: formatCount(totals.waiting), change: previous ? formatChange(totals.waiting, previous.waiting) : null },
    durationCard('first-response', 'Primeira resposta', totals.firstResponse, previous?.firstResponse),
    durationCard('resolution', 'Tempo de resolução', totals.resolution, previous?.resolution),
    durationCard('waiting-time', 'Tempo de espera', totals.waitingTime, previous?.waitingTime),
    {
      id: 'rating',
      label: 'Avaliação média',
      value: formatScore(totals.ratings.average),
      detail: `${formatCount(totals.ratings.count)} ${totals.ratings.count === 1 ? 'avaliação' : 'avaliações'}`,
      change: previous ? formatChange(totals.ratings.average, previous.ratings.average) : null,
    },
  ];
  return (
    <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
      {cards.map((card) => (
        <div key={card.id} className="rounded-xl border border-border bg-surface px-3 py-3" data-testid={`report-card-${card.id}`}>
          <dt className="text-xs text-fg-muted">{card.label}</dt>
          <dd className="mt-1 text-xl font-semibold text-fg tabular-nums">{card.value}</dd>
          {card.detail ? <dd className="text-xs text-fg-muted">{card.detail}</dd> : null}
          {card.change ? (
            <dd className="text-xs text-fg-muted">{card.change === 'igual' ? 'Igual ao período anterior' : `${card.change} em relação ao período anterior`}</dd>
          ) : null}
        </div>
      ))}
    </dl>
  );
}
