import { useState } from 'react';
import { Check, Copy } from 'lucide-react';
import { apiTokenExpiryDays, apiTokenPayload, apiTokenScopeLabels, apiTokenScopes, type ApiTokenCreated, type ApiTokenScope } from '#contracts/api-tokens.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog } from '#web/components/ui/dialog.tsx';
import { CheckboxField, InputField, SelectField } from '#web/components/ui/field.tsx';
import { Alert } from '#web/components/ui/misc.tsx';
import { ApiError } from '#web/lib/api-client.ts';
import { useCreateApiToken } from '#web/features/api-tokens/api/api-tokens.ts';

const expiryOptions = [
  { value: '', label: 'Sem validade' },
  ...apiTokenExpiryDays.map((days) => ({ value: String(days), label: days === 365 ? '1 ano' : `${days} dias` })),
];

type Errors = Partial<Record<'name' | 'scopes' | 'expiresInDays', string>>;

/** The secret, shown once: a read-only field, 'Copiar' and the warning that it will not be shown again. */
function SecretShownOnce({ created, onClose }: { created: ApiTokenCreated; onClose: () => void }) {
  const [copied, setCopied] = useState(false);
  const copy = () => {
    void navigator.clipboard?.writeText(created.secret).then(() => setCopied(true));
  };
  return (
    <div className="space-y-4">
      <Alert tone="warning" title="Copie o token agora">
        Por segurança, ele não será mostrado de novo. Guarde-o num lugar seguro, como o cofre de senhas da sua equipe ou as credenciais do n8n.
      </Alert>
      <InputField
        id="api-token-secret"
        label={`Token ${created.token.name}`}
        value={created.secret}
        readOnly
        className="font-mono text-xs"
        onFocus={(e) => e.currentTarget.select()}
      />
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="outline" onClick={copy}>
          {copied ? <Check className="size-4" aria-hidden="true" /> : <Copy className="size-4" aria-hidden="true" />}
          {copied ? 'Copiado' : 'Copiar token'}
        </Button>
        <Button onClick={onClose}>Concluir</Button>
      </div>
      <p className="sr-only" role="status">
        {copied ? 'Token copiado para a área de transferência' : ''}
      </p>
    </div>
  );
}

/** 'Novo token': name, permissions and validity; then the secret, shown once. */
export function CreateApiTokenDialog({ onClose }: { onClose: () => void }) {
  const create = useCreateApiToken();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiTokenScope[]>([]);
  const [expiry, setExpiry] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [created, setCreated] = useState<ApiTokenCreated>();

  const toggle = (scope: ApiTokenScope, on: boolean) => setScopes((now) => (on ? [...now, scope] : now.filter((s) => s !== scope)));
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = apiTokenPayload.safeParse({ name, scopes, expiresInDays: expiry ? Number(expiry) : null });
    if (!parsed.success) {
      const found: Errors = {};
      for (const issue of parsed.error.issues) found[issue.path[0] as keyof Errors] ??= issue.message;
      setErrors(found);
      document.getElementById(found.name ? 'api-token-name' : 'api-token-scope-contacts-read')?.focus();
      return;
    }
    setErrors({});
    create.mutate(parsed.data, {
      onSuccess: setCreated,
      onError: (error) => {
        if (!(error instanceof ApiError) || !error.details.length) return;
        const found: Errors = {};
        for (const d of error.details) found[d.path.split('.')[0] as keyof Errors] ??= d.message;
        setErrors(found);
      },
    });
  };

  return (
    <Dialog open onClose={onClose} title={created ? 'Token criado' : 'Novo token de API'}>
      {created ? (
        <SecretShownOnce created={created} onClose={onClose} />
      ) : (
        <form onSubmit={submit} noValidate className="space-y-4">
          <InputField
            id="api-token-name"
            label="Nome"
            required
            autoComplete="off"
            maxLength={80}
            hint="Para lembrar onde ele é usado, como n8n ou ERP."
            value={name}
            error={errors.name}
            onChange={(e) => setName(e.target.value)}
          />
          <fieldset className="space-y-2" aria-describedby={errors.scopes ? 'api-token-scopes-error' : undefined}>
            <legend className="mb-1 text-sm font-medium text-fg">
              Permissões <span className="text-danger">*</span>
            </legend>
            {apiTokenScopes.map((scope) => (
              <CheckboxField
                key={scope}
                id={`api-token-scope-${scope.replace(':', '-')}`}
                label={
                  <>
                    {apiTokenScopeLabels[scope]} <code className="text-xs text-fg-muted">{scope}</code>
                  </>
                }
                checked={scopes.includes(scope)}
                onChange={(e) => toggle(scope, e.target.checked)}
              />
            ))}
            {errors.scopes ? (
              <p id="api-token-scopes-error" className="text-xs font-medium text-danger" role="alert">
                {errors.scopes}
              </p>
            ) : null}
          </fieldset>
          <SelectField
            id="api-token-expiry"
            label="Validade"
            options={expiryOptions}
            value={expiry}
            error={errors.expiresInDays}
            onChange={(e) => setExpiry(e.target.value)}
          />
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="outline" onClick={onClose}>
              Cancelar
            </Button>
            <Button type="submit" loading={create.isPending}>
              Criar token
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
