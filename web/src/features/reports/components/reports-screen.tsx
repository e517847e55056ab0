import { useState } from 'react';
import type { ReportAnswer } from '#contracts/reports.ts';
import { Alert, Card } from '#web/components/ui/misc.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { useSession } from '#web/lib/auth.ts';
import { useReport } from '#web/features/reports/api/reports.ts';
import { csvName, dayColumns, ratingColumns, ratingRows, rowColumns } from '#web/features/reports/report-columns.ts';
import { formatReportDate } from '#web/features/reports/report-format.ts';
import { type ReportPeriod, type ReportPreset, periodError, presetPeriod, todayIn } from '#web/features/reports/report-period.ts';
import { BusiestHours } from './busiest-hours.tsx';
import { DayChart } from './day-chart.tsx';
import { PeriodPicker } from './period-picker.tsx';
import { RatingsChart } from './ratings-chart.tsx';
import { ReportTable } from './report-table.tsx';
import { SummaryCards } from './summary-cards.tsx';

function Section({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <Card className="space-y-3 p-4 sm:p-6" aria-labelledby={`report-${id}-title`} role="region">
      <h2 id={`report-${id}-title`} className="text-base font-semibold text-fg">
        {title}
      </h2>
      {children}
    </Card>
  );
}

function Figures({ report }: { report: ReportAnswer }) {
  const own = report.scope === 'own';
  const name = (what: string) => csvName(what, report.from, report.to);
  const empty = report.totals.opened + report.totals.resolved + report.totals.ratings.count + report.totals.firstResponse.count === 0;
  return (
    <div className="space-y-4">
      {empty ? (
        <Alert title="Nenhuma conversa neste período.">
          Os relatórios contam as conversas enquanto alguma automação ou o menu de uma conexão estiver ligado (Automações, Menu de atendimento).
        </Alert>
      ) : null}
      <SummaryCards totals={report.totals} previous={report.previous?.totals} />
      <Section id="days" title="Por dia">
        <DayChart days={report.days} />
        <ReportTable id="days" caption="Números por dia" columns={dayColumns()} rows={report.days} filename={name('dias')} />
      </Section>
      <Section id="agents" title={own ? 'Meus números' : 'Por atendente'}>
        <ReportTable id="agents" caption="Números por atendente" columns={rowColumns('Atendente')} rows={report.agents} filename={name('atendentes')} />
      </Section>
      {own ? null : (
        <>
          <Section id="departments" title="Por departamento">
            <ReportTable
              id="departments"
              caption="Números por departamento"
              columns={rowColumns('Departamento')}
              rows={report.departments}
              filename={name('departamentos')}
            />
          </Section>
          <Section id="connections" title="Por conexão">
            <ReportTable id="connections" caption="Números por conexão" columns={rowColumns('Conexão')} rows={report.connections} filename={name('conexoes')} />
          </Section>
        </>
      )}
      <Section id="ratings" title="Avaliações">
        <RatingsChart distribution={report.totals.ratings.distribution} />
        <ReportTable
          id="ratings"
          caption="Avaliações por nota"
          columns={ratingColumns}
          rows={ratingRows(report.totals.ratings.distribution)}
          filename={name('avaliacoes')}
        />
      </Section>
      <Section id="hours" title="Horários de maior movimento">
        <p className="text-sm text-fg-muted">Conversas abertas por dia da semana e hora ({report.timeZone}).</p>
        <BusiestHours grid={report.busiestHours} />
      </Section>
    </div>
  );
}

/**
 * 'Relatórios' (docs/product.md#reports): an admin's figures of the account, a member's own ('Meus
 * números'), for a period of the account's days, with the previous period beside when asked.
 */
export function ReportsScreen() {
  const { user } = useSession();
  const [preset, setPreset] = useState<ReportPreset>('30');
  const [zone, setZone] = useState<string | undefined>(undefined);
  const today = todayIn(zone);
  const [custom, setCustom] = useState<ReportPeriod>(() => presetPeriod('30', today));
  const [compare, setCompare] = useState(false);
  const period = preset === 'custom' ? custom : presetPeriod(preset, today);
  const error = periodError(period);
  const report = useReport(period.from, period.to, compare, error === null);
  if (report.data && report.data.timeZone !== zone) setZone(report.data.timeZone);

  const choosePreset = (next: ReportPreset) => {
    if (next === 'custom') setCustom(period);
    setPreset(next);
  };

  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight text-fg">{user?.isAdmin ? 'Relatórios' : 'Meus números'}</h1>
        <p className="text-sm text-fg-muted">
          {`De ${formatReportDate(period.from)} a ${formatReportDate(period.to)}`}
          {report.data?.previous ? `, comparado a ${formatReportDate(report.data.previous.from)} a ${formatReportDate(report.data.previous.to)}` : ''}
        </p>
      </div>
      <PeriodPicker preset={preset} period={period} compare={compare} error={error} onPreset={choosePreset} onPeriod={setCustom} onCompare={setCompare} />
      {error ? null : report.isError ? (
        <Alert tone="danger">Não foi possível carregar o relatório.</Alert>
      ) : report.data ? (
        <div aria-busy={report.isFetching} className={report.isPlaceholderData ? 'opacity-60' : undefined}>
          <Figures report={report.data} />
        </div>
      ) : (
        <p className="flex items-center gap-2 text-sm text-fg-muted" role="status">
          <Spinner className="size-4 text-brand" /> Carregando...
        </p>
      )}
    </div>
  );
}
