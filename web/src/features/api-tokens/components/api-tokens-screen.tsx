import { useState } from 'react';
import { KeyRound, Plus } from 'lucide-react';
import { type ApiToken, apiTokenScopeLabels } from '#contracts/api-tokens.ts';
import { Button } from '#web/components/ui/button.tsx';
import { ConfirmDialog } from '#web/components/ui/confirm-dialog.tsx';
import { Alert, Badge, Card } from '#web/components/ui/misc.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { useSession } from '#web/lib/auth.ts';
import { formatDate, formatDateTime } from '#web/lib/format.ts';
import { showToast } from '#web/lib/notify.ts';
import { useApiTokens, useRevokeApiToken } from '#web/features/api-tokens/api/api-tokens.ts';
import { ApiTokenCalls } from './api-token-calls.tsx';
import { CreateApiTokenDialog } from './create-api-token-dialog.tsx';

function statusOf(token: ApiToken, now: number): { label: string; tone: 'success' | 'danger' | 'neutral' } {
  if (token.revokedAt) return { label: 'Revogado', tone: 'danger' };
  if (token.expiresAt && Date.parse(token.expiresAt) <= now) return { label: 'Expirado', tone: 'neutral' };
  return { label: 'Ativo', tone: 'success' };
}

function TokenCard({ token, onRevoke }: { token: ApiToken; onRevoke: () => void }) {
  const [showCalls, setShowCalls] = useState(false);
  const status = statusOf(token, Date.now());
  const callsId = `api-token-calls-${token.id}`;
  return (
    <li data-testid="api-token-row">
      <Card className="space-y-3 p-4">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div className="min-w-0">
            <h2 className="truncate text-base font-semibold text-fg">{token.name}</h2>
            <p className="font-mono text-xs text-fg-muted">{token.hint}</p>
          </div>
          <Badge tone={status.tone}>{status.label}</Badge>
        </div>
        <ul className="flex flex-wrap gap-1.5" aria-label={`Permissões do token ${token.name}`}>
          {token.scopes.map((scope) => (
            <li key={scope}>
              <Badge tone="neutral">{apiTokenScopeLabels[scope]}</Badge>
            </li>
          ))}
        </ul>
        <dl className="grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
          <div className="flex gap-1">
            <dt className="text-fg-muted">Criado por</dt>
            <dd className="text-fg">
              {token.createdBy.name} em {formatDate(token.createdAt)}
            </dd>
          </div>
          <div className="flex gap-1">
            <dt className="text-fg-muted">Último uso</dt>
            <dd className="text-fg">{token.lastUsedAt ? formatDateTime(token.lastUsedAt) : 'Nunca usado'}</dd>
          </div>
          <div className="flex gap-1">
            <dt className="text-fg-muted">Validade</dt>
            <dd className="text-fg">{token.expiresAt ? `até ${formatDate(token.expiresAt)}` : 'Sem validade'}</dd>
          </div>
          {token.revokedAt ? (
            <div className="flex gap-1">
              <dt className="text-fg-muted">Revogação</dt>
              <dd className="text-fg">
                por {token.revokedBy?.name ?? '—'} em {formatDateTime(token.revokedAt)}
              </dd>
            </div>
          ) : null}
        </dl>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" size="sm" aria-expanded={showCalls} aria-controls={callsId} onClick={() => setShowCalls((v) => !v)}>
            {showCalls ? 'Ocultar chamadas' : 'Últimas chamadas'}
          </Button>
          {token.revokedAt ? null : (
            <Button variant="outline" size="sm" className="text-danger" onClick={onRevoke} aria-label={`Revogar o token ${token.name}`}>
              Revogar
            </Button>
          )}
        </div>
        <div id={callsId} hidden={!showCalls}>
          {showCalls ? <ApiTokenCalls id={token.id} name={token.name} /> : null}
        </div>
      </Card>
    </li>
  );
}

/**
 * 'Tokens de API' (/api-tokens, docs/product.md#tokens-de-api): the account's tokens for other
 * systems (n8n, an ERP), with their permissions, last use and latest calls; admins create and revoke
 * them. The secret is shown once, when created (docs/api.md#api-tokens).
 */
export function ApiTokensScreen() {
  const { user } = useSession();
  const admin = !!user?.isAdmin;
  const tokens = useApiTokens(admin);
  const revoke = useRevokeApiToken();
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiToken>();
  const rows = tokens.data ?? [];

  const create = (
    <Button onClick={() => setCreating(true)}>
      <Plus className="size-4" aria-hidden="true" /> Novo token
    </Button>
  );

  return (
    <div className="mx-auto max-w-4xl space-y-6 px-4 py-8 sm:px-8">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight text-fg">Tokens de API</h1>
          <p className="mt-1 text-sm text-fg-muted">Conecte o n8n, o seu ERP ou outro sistema à API do Conversa, com só as permissões que ele precisa.</p>
        </div>
        {admin && rows.length > 0 ? create : null}
      </div>
      {!admin ? (
        <Alert tone="info">Só administradores podem ver e criar tokens de API.</Alert>
      ) : tokens.isError ? (
        <Alert tone="danger">Não foi possível carregar os tokens.</Alert>
      ) : tokens.isPending ? (
        <p className="flex items-center gap-2 text-sm text-fg-muted" role="status">
          <Spinner className="size-4 text-brand" /> Carregando...
        </p>
      ) : rows.length === 0 ? (
        <Card className="flex flex-col items-center gap-3 px-6 py-12 text-center">
          <KeyRound className="size-10 text-brand" aria-hidden="true" />
          <h2 className="text-lg font-semibold text-fg">Nenhum token ainda</h2>
          <p className="max-w-md text-sm text-fg-muted">
            Um token deixa outro sistema ler e gravar contatos, ler e enviar mensagens ou gerenciar webhooks em nome da sua conta, só com as permissões que você
            escolher. Você pode revogá-lo a qualquer momento.
          </p>
          {create}
        </Card>
      ) : (
        <ul className="space-y-4" aria-label="Tokens de API">
          {rows.map((token) => (
            <TokenCard key={token.id} token={token} onRevoke={() => setRevoking(token)} />
          ))}
        </ul>
      )}
      {creating ? <CreateApiTokenDialog onClose={() => setCreating(false)} /> : null}
      {revoking ? (
        <ConfirmDialog
          title="Revogar token?"
          message={`O token ${revoking.name} para de funcionar na próxima chamada. Os sistemas que o usam perdem o acesso. Isso não pode ser desfeito.`}
          confirmLabel="Revogar"
          busy={revoke.isPending}
          onClose={() => setRevoking(undefined)}
          onConfirm={() =>
            revoke.mutate(revoking.id, {
              onSuccess: () => {
                showToast({ tone: 'success', title: 'Token revogado' });
                setRevoking(undefined);
              },
            })
          }
        />
      ) : null}
    </div>
  );
}
