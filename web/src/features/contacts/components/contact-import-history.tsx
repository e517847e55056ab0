import { useState } from 'react';
import { Link } from 'react-router';
import { Download } from 'lucide-react';
import type { ContactImportStatus, ContactImportSummary } from '#contracts/contact-imports.ts';
import { buttonClasses } from '#web/components/ui/button.tsx';
import { Alert, Badge, Card } from '#web/components/ui/misc.tsx';
import { Pagination } from '#web/components/ui/pagination.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { formatDateTime } from '#web/lib/format.ts';
import { useContactImports } from '../api/contact-imports.ts';

const perPage = 5;
const number = (n: number) => n.toLocaleString('pt-BR');

/** The badge of each status (docs/product.md#screens, 'Importar contatos'); an upload never checked is not listed. */
const statusBadges: Record<ContactImportStatus, { label: string; tone: 'brand' | 'neutral' | 'success' | 'warning' }> = {
  waiting: { label: 'Não verificado', tone: 'neutral' },
  checking: { label: 'Verificando', tone: 'brand' },
  checked: { label: 'Verificado, não importado', tone: 'warning' },
  importing: { label: 'Importando', tone: 'brand' },
  done: { label: 'Importado', tone: 'success' },
};

const running = (status: ContactImportStatus) => status === 'checking' || status === 'importing';

function RowProgress({ row }: { row: ContactImportSummary }) {
  const percent = row.size > 0 ? Math.min(100, Math.round((row.bytesRead / row.size) * 100)) : 0;
  return (
    <div className="space-y-1">
      <div
        className="h-2 overflow-hidden rounded-full bg-surface-2"
        role="progressbar"
        aria-label={`Progresso de ${row.fileName}`}
        aria-valuenow={percent}
        aria-valuemin={0}
        aria-valuemax={100}
      >
        <div className="h-full bg-brand transition-[width]" style={{ width: `${percent}%` }} />
      </div>
      <p className="text-xs text-fg-muted tabular-nums">
        {percent}% · {number(row.rows)} linhas lidas
      </p>
    </div>
  );
}

/** What a row's counts say: what was (or would be) imported, what already existed and what was refused. */
function Counts({ row }: { row: ContactImportSummary }) {
  if (row.status !== 'checked' && row.status !== 'done') return null;
  return (
    <p className="text-sm text-fg-muted tabular-nums">
      {number(row.accepted)} {row.status === 'checked' ? 'serão importados' : 'importados'} · {number(row.skipped)} já existiam · {number(row.rejected)} com
      problema
    </p>
  );
}

function ImportRow({ row, current }: { row: ContactImportSummary; current: boolean }) {
  const badge = statusBadges[row.status];
  const reopen = running(row.status) ? 'Acompanhar' : row.status === 'checked' ? 'Continuar' : null;
  return (
    <li className="space-y-3 px-4 py-4 sm:px-6" data-testid="import-history-row" aria-current={current || undefined}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0 space-y-0.5">
          <p className="truncate font-medium text-fg" title={row.fileName}>
            {row.fileName}
          </p>
          <p className="text-xs text-fg-muted">
            {row.requestedBy ? `${row.requestedBy.name} · ` : ''}
            <time dateTime={row.createdAt}>{formatDateTime(row.createdAt)}</time>
          </p>
        </div>
        <Badge tone={badge.tone}>
          {running(row.status) ? <Spinner className="size-3" /> : null}
          {badge.label}
        </Badge>
      </div>
      {running(row.status) ? <RowProgress row={row} /> : <Counts row={row} />}
      {(reopen && !current) || row.problemsUrl ? (
        <div className="flex flex-wrap gap-2">
          {reopen && !current ? (
            <Link to={`/contacts/import?id=${encodeURIComponent(row.id)}`} aria-label={`${reopen} ${row.fileName}`} className={buttonClasses('outline', 'sm')}>
              {reopen}
            </Link>
          ) : null}
          {row.problemsUrl ? (
            <a href={row.problemsUrl} download aria-label={`Baixar linhas não importadas (CSV) de ${row.fileName}`} className={buttonClasses('ghost', 'sm')}>
              <Download className="size-4" aria-hidden="true" /> Baixar linhas não importadas (CSV)
            </a>
          ) : null}
        </div>
      ) : null}
      {current ? <p className="text-xs text-fg-muted">Aberta nesta tela</p> : null}
    </li>
  );
}

/**
 * 'Importações recentes' on /contacts/import (ADR-0236): the account's
 * checks and imports, newest first, five a page, with their status, progress or counts, the rows
 * left out to download again and a link that reopens a running or checked one in the screen.
 */
export function ContactImportHistory({ currentId }: { currentId: string | null }) {
  const [page, setPage] = useState(0);
  const list = useContactImports(page, perPage);
  const rows = list.data?.data ?? [];
  return (
    <section aria-labelledby="import-history-title">
      <Card className="overflow-hidden">
        <div className="space-y-1 px-4 pt-6 pb-2 sm:px-6">
          <h2 id="import-history-title" className="text-base font-semibold text-fg">
            Importações recentes
          </h2>
          <p className="text-sm text-fg-muted">Verificações e importações da conta, das mais recentes às mais antigas.</p>
        </div>
        {list.isLoading ? (
          <p className="flex items-center gap-2 px-4 pb-6 text-sm text-fg-muted sm:px-6" role="status">
            <Spinner className="size-4 text-brand" /> Carregando importações...
          </p>
        ) : list.error ? (
          <div className="px-4 pb-6 sm:px-6">
            <Alert tone="danger" title="Não foi possível carregar as importações">
              Tente de novo em instantes.
            </Alert>
          </div>
        ) : rows.length ? (
          <>
            <ul className="divide-y divide-border border-t border-border" aria-label="Importações recentes">
              {rows.map((row) => (
                <ImportRow key={row.id} row={row} current={row.id === currentId} />
              ))}
            </ul>
            {(list.data?.totalCount ?? 0) > perPage ? (
              <Pagination page={page} perPage={perPage} total={list.data?.totalCount ?? 0} onPageChange={setPage} idPrefix="import-history" />
            ) : null}
          </>
        ) : (
          <p className="px-4 pb-6 text-sm text-fg-muted sm:px-6">
            Nenhuma importação ainda. Depois de verificar um arquivo, ele aparece aqui, e você pode voltar a ele quando quiser.
          </p>
        )}
      </Card>
    </section>
  );
}
