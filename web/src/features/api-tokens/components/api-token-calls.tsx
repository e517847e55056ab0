import { Alert } from '#web/components/ui/misc.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { formatDateTime } from '#web/lib/format.ts';
import { useApiTokenCalls } from '#web/features/api-tokens/api/api-tokens.ts';

/** A region of its own, focusable, so the keyboard can scroll the table on a phone. */
const scrollRegion = (label: string) => ({ tabIndex: 0, role: 'region', 'aria-label': label });

/** 'Últimas chamadas': a token's last 20 calls, newest first (kept 90 days). */
export function ApiTokenCalls({ id, name }: { id: string; name: string }) {
  const calls = useApiTokenCalls(id);
  if (calls.isPending) {
    return (
      <p className="flex items-center gap-2 text-sm text-fg-muted" role="status">
        <Spinner className="size-4 text-brand" /> Carregando...
      </p>
    );
  }
  if (calls.isError) return <Alert tone="danger">Não foi possível carregar as chamadas.</Alert>;
  if (!calls.data.length) return <p className="text-sm text-fg-muted">Nenhuma chamada com este token ainda.</p>;
  return (
    <div className="overflow-x-auto focus-visible:outline-2 focus-visible:outline-ring" {...scrollRegion(`Últimas chamadas do token ${name}`)}>
      <table className="w-full min-w-[420px] text-left text-sm">
        <caption className="sr-only">Últimas chamadas do token {name}</caption>
        <thead className="text-xs text-fg-muted">
          <tr>
            <th scope="col" className="py-1 pr-3 font-medium">
              Quando
            </th>
            <th scope="col" className="py-1 pr-3 font-medium">
              Chamada
            </th>
            <th scope="col" className="py-1 pr-3 font-medium">
              Resposta
            </th>
            <th scope="col" className="py-1 font-medium">
              Endereço
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-border">
          {calls.data.map((call) => (
            <tr key={`${call.at}${call.method}${call.route}`}>
              <td className="py-1.5 pr-3 whitespace-nowrap text-fg-muted">{formatDateTime(call.at)}</td>
              <td className="py-1.5 pr-3 font-mono text-xs text-fg">
                {call.method} {call.route}
              </td>
              <td className="py-1.5 pr-3 text-fg tabular-nums">{call.status}</td>
              <td className="py-1.5 font-mono text-xs text-fg-muted">{call.address}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
