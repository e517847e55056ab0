import { useState } from 'react';
import { Download, FileArchive } from 'lucide-react';
import { Button, buttonClasses } from '#web/components/ui/button.tsx';
import { Card } from '#web/components/ui/misc.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { useAccountExport, useStartAccountExport } from '#web/features/account/api/account-export.ts';
import { showToast } from '#web/lib/notify.ts';

/**
 * 'Exportar dados da conta' (admins): the whole account's data as one file, for a data subject's
 * access request (LGPD). The export runs in the background; the card follows it and offers the file.
 */
export function DataExport({ accountId }: { accountId: string }) {
  const [exportId, setExportId] = useState<string | null>(null);
  const start = useStartAccountExport(accountId);
  const status = useAccountExport(accountId, exportId);
  const done = status.data?.status === 'done' && status.data.url ? status.data : null;
  const running = Boolean(exportId) && !done;

  return (
    <Card className="flex flex-wrap items-center justify-between gap-4 p-6">
      <div className="flex min-w-0 flex-[1_1_20rem] items-start gap-3">
        <FileArchive className="mt-0.5 size-5 shrink-0 text-fg-muted" aria-hidden="true" />
        <div className="min-w-0">
          <h2 className="text-base font-semibold text-fg">Exportar dados da conta</h2>
          <p className="mt-1 text-sm text-fg-muted">
            Um arquivo com os usuários, as conexões, os contatos e todas as conversas da conta, para atender a um pedido de acesso aos dados (LGPD).
          </p>
          {running ? (
            <p className="mt-2 flex items-center gap-2 text-sm text-fg-muted" role="status">
              <Spinner className="size-4 text-brand" /> Preparando o arquivo...
            </p>
          ) : null}
          {done ? (
            <p className="mt-2 text-sm text-fg-muted" role="status">
              Arquivo pronto: {done.lines} registros. O link vale por uma hora.
            </p>
          ) : null}
        </div>
      </div>
      {done ? (
        <a href={done.url!} download className={buttonClasses('primary')}>
          <Download className="size-4" aria-hidden="true" /> Baixar arquivo
        </a>
      ) : (
        <Button
          variant="outline"
          loading={start.isPending || running}
          onClick={() =>
            start.mutate(undefined, {
              onSuccess: (started) => setExportId(started.id),
              onError: () => showToast({ tone: 'error', title: 'Não foi possível exportar os dados da conta' }),
            })
          }
        >
          Exportar dados da conta
        </Button>
      )}
    </Card>
  );
}
