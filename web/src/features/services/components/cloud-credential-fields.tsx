/**
 * WhatsApp (API oficial): the connection form's four credentials. The two ids are not secret and
 * show as stored; the access token and the app secret are password inputs, and on edit they start
 * blank with the stored value's mask as placeholder: blank keeps it (PUT /services/{id} takes any
 * of the four, the others stay). The two-step verification PIN is asked beside them, optional: the
 * server uses it only to register a number not yet on the Cloud API and never stores it (ADR-0216). An existing connection also shows its webhook (the callback URL
 * and verify token an admin pastes into the Meta app's WhatsApp > Configuration), as the API
 * answers it to admins.
 */
import { registrationPinHint, registrationPinLabel, type Service } from '#contracts/services.ts';
import { useState } from 'react';
import { Check, Copy } from 'lucide-react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { InputField, PasswordField } from '#web/components/ui/field.tsx';

type Bound = UseFormRegisterReturn & { id: string; error?: string };

type CloudCredentialName = 'phoneNumberId' | 'wabaId' | 'accessToken' | 'appSecret' | 'registrationPin';

export function CloudCredentialFields({ service, field }: { service?: Service; field: (name: CloudCredentialName) => Bound }) {
  const storedToken = service?.internalData.token;
  const storedSecret = service?.internalData.appSecret;
  return (
    <fieldset className="space-y-4">
      <legend className="sr-only">Credenciais do WhatsApp (API oficial)</legend>
      <InputField
        label="ID do número de telefone"
        required
        inputMode="numeric"
        autoComplete="off"
        placeholder="106540352242922"
        hint="No painel de desenvolvedores da Meta, em WhatsApp > Configuração da API, abaixo do número. Só números."
        {...field('phoneNumberId')}
      />
      <InputField
        label="ID da conta do WhatsApp Business (WABA)"
        required
        inputMode="numeric"
        autoComplete="off"
        placeholder="102290129340398"
        hint="Na mesma página, em ID da conta do WhatsApp Business. Só números."
        {...field('wabaId')}
      />
      <PasswordField
        label="Token de acesso (usuário do sistema)"
        required={!storedToken}
        autoComplete="off"
        spellCheck={false}
        placeholder={storedToken}
        hint={
          <>
            Um token permanente de um usuário do sistema, criado no Gerenciador de Negócios da Meta (Configurações do negócio &gt; Usuários do sistema), com as
            permissões whatsapp_business_messaging e whatsapp_business_management.
            {storedToken ? ' Deixe em branco para manter o token atual.' : ''}
          </>
        }
        {...field('accessToken')}
      />
      <PasswordField
        label="Chave secreta do app"
        required={!storedSecret}
        autoComplete="off"
        spellCheck={false}
        placeholder={storedSecret}
        hint={`Em Configurações do app > Básico, no painel de desenvolvedores da Meta: 32 letras e números.${storedSecret ? ' Deixe em branco para manter a chave atual.' : ''}`}
        {...field('appSecret')}
      />
      <PasswordField
        label={registrationPinLabel}
        inputMode="numeric"
        autoComplete="off"
        maxLength={6}
        hint={registrationPinHint}
        {...field('registrationPin')}
      />
      {service?.webhook ? (
        <CloudWebhookSettings webhook={service.webhook} />
      ) : service ? null : (
        <p className="text-xs text-fg-muted">
          Depois de criar a conexão, abra <strong>Editar</strong> para ver a URL de retorno e o token de verificação do webhook, que vão no app da Meta.
        </p>
      )}
    </fieldset>
  );
}

/** A read-only value with 'Copiar' (the callback URL, the verify token). */
function CopyableValue({ id, label, value }: { id: string; label: string; value: string }) {
  const [copied, setCopied] = useState(false);
  const copy = () => {
    void navigator.clipboard?.writeText(value).then(() => setCopied(true));
  };
  return (
    <InputField
      id={id}
      label={label}
      value={value}
      readOnly
      className="font-mono text-xs"
      onFocus={(e) => e.currentTarget.select()}
      aside={
        <button
          type="button"
          onClick={copy}
          className="inline-flex items-center gap-1 rounded-md text-xs font-semibold text-brand underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-ring"
          aria-label={`Copiar ${label.toLowerCase()}`}
        >
          {copied ? <Check className="size-3.5" aria-hidden="true" /> : <Copy className="size-3.5" aria-hidden="true" />}
          {copied ? 'Copiado' : 'Copiar'}
        </button>
      }
    />
  );
}

/** The webhook to configure in the Meta app, for an admin. */
function CloudWebhookSettings({ webhook }: { webhook: { path: string; verifyToken: string } }) {
  return (
    <div className="space-y-3 rounded-xl border border-border bg-surface-2 p-4">
      <div>
        <h3 className="text-sm font-semibold text-fg">Webhook no app da Meta</h3>
        <p className="mt-0.5 text-xs text-fg-muted">
          No painel de desenvolvedores da Meta, em WhatsApp &gt; Configuração, cole estes valores em Webhook e assine o campo messages.
        </p>
      </div>
      <CopyableValue id="service-webhook-url" label="URL de retorno" value={`${window.location.origin}${webhook.path}`} />
      <CopyableValue id="service-webhook-verify-token" label="Token de verificação" value={webhook.verifyToken} />
    </div>
  );
}
