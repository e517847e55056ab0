import { useEffect, useMemo, useState } from 'react';
import { z } from 'zod';
import { requiredText } from '#contracts/fields.ts';
import { connectionFormTypes, serviceTypeLabels } from '#contracts/service-labels.ts';
import {
  cloudCredentialTexts,
  readReceiptsLabel,
  serviceCreatePayload,
  serviceUpdatePayload,
  telegramTokenRequiredText,
  type Service,
  type ServiceCreatePayload,
  type ServiceType as ServiceTypeName,
} from '#contracts/services.ts';
import { DetailsDialog, type DetailRow } from '#web/components/ui/details-dialog.tsx';
import { Dialog } from '#web/components/ui/dialog.tsx';
import { FormActions } from '#web/components/ui/form-actions.tsx';
import { CheckboxField, InputField, SelectField } from '#web/components/ui/field.tsx';
import { DialogLoading } from '#web/components/ui/spinner.tsx';
import { ApiError } from '#web/lib/api-client.ts';
import { formatDateTime } from '#web/lib/format.ts';
import { useSchemaForm } from '#web/lib/form.ts';
import { embeddedSignupTexts } from '#contracts/embedded-signup.ts';
import { useEmbeddedSignupConfig } from '#web/features/services/api/embedded-signup.ts';
import { useService } from '#web/features/services/api/get-service.ts';
import { useSaveService } from '#web/features/services/api/save-service.ts';
import { CloudCredentialFields } from './cloud-credential-fields.tsx';
import { CloudQualityBadge } from './cloud-number.tsx';
import { EmbeddedSignup } from './embedded-signup.tsx';
import { canPairByPhone, PairByPhone, PairByPhoneSwitch } from './pairing-code.tsx';
import { ServiceType } from './service-type.tsx';

type Values = {
  name: string;
  type: string;
  token: string;
  readReceipts: boolean;
  /** WhatsApp (API oficial). */
  phoneNumberId: string;
  wabaId: string;
  accessToken: string;
  appSecret: string;
  /** Only to register a number not yet on the Cloud API; never stored. */
  registrationPin: string;
};

/** What an edited connection already holds (a blank secret keeps it). */
type Stored = Pick<Service['internalData'], 'token' | 'appSecret'> | undefined;

const blankToUndefined = (v: string) => (v.trim() ? v : undefined);

/**
 * The form's rules: name and type required; for Telegram the token ('Token do Telegram é
 * obrigatório' when blank); for WhatsApp (API oficial) the four credentials, checked by the same
 * contract schema as the API (on edit a blank access token or app secret keeps the stored one; the
 * ids show as stored and stay required).
 */
export function serviceFormSchema(mode: 'create' | 'edit', stored: Stored) {
  return z.custom<Values>().transform((v, ctx) => {
    const type = v.type || undefined;
    const token = blankToUndefined(v.token);
    const schema = mode === 'create' ? serviceCreatePayload : serviceUpdatePayload;
    // Read receipts are a WhatsApp setting (QR or Cloud API): Telegram sends none (and keeps the default).
    const readReceipts = type === 'whatsapp' || type === 'whatsapp_cloud' ? v.readReceipts : undefined;
    const cloud =
      type === 'whatsapp_cloud'
        ? {
            phoneNumberId: blankToUndefined(v.phoneNumberId),
            wabaId: blankToUndefined(v.wabaId),
            accessToken: blankToUndefined(v.accessToken),
            appSecret: blankToUndefined(v.appSecret),
            registrationPin: blankToUndefined(v.registrationPin),
          }
        : {};
    const parsed = schema.safeParse({ name: v.name, type, token, readReceipts, ...cloud });
    if (mode === 'edit' && type === 'whatsapp_cloud') {
      // The update schema takes each credential as optional (the others stay): the form still
      // needs the ids it shows, and a secret only when none is stored.
      const missing = [
        ['phoneNumberId', cloudCredentialTexts.phoneNumberIdRequired, false],
        ['wabaId', cloudCredentialTexts.wabaIdRequired, false],
        ['accessToken', cloudCredentialTexts.accessTokenRequired, !!stored?.token],
        ['appSecret', cloudCredentialTexts.appSecretRequired, !!stored?.appSecret],
      ] as const;
      const issues = parsed.success ? [] : parsed.error.issues;
      let blank = false;
      for (const [path, message, kept] of missing) {
        if (kept || v[path].trim() || issues.some((i) => i.path[0] === path)) continue;
        ctx.addIssue({ code: 'custom', path: [path], message });
        blank = true;
      }
      if (blank && parsed.success) return z.NEVER;
    }
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const path = String(issue.path[0] ?? '');
        ctx.addIssue({ code: 'custom', path: [path], message: path === 'type' ? requiredText : issue.message });
      }
      return z.NEVER;
    }
    if (mode === 'edit' && v.type === 'telegram' && !stored?.token && !token) {
      ctx.addIssue({ code: 'custom', path: ['token'], message: telegramTokenRequiredText });
      return z.NEVER;
    }
    return parsed.data as ServiceCreatePayload;
  });
}

/** The types the form offers; an edited connection's own type is always among them (it cannot change). */
function formTypes(service: Service | undefined): readonly ServiceTypeName[] {
  const offered: readonly ServiceTypeName[] = connectionFormTypes;
  return service && !offered.includes(service.type) ? [...offered, service.type] : offered;
}

function ServiceForm({ service, onClose, onSaved }: { service?: Service; onClose: () => void; onSaved: () => void }) {
  const mode = service ? 'edit' : 'create';
  const schema = useMemo(() => serviceFormSchema(mode, service?.internalData), [mode, service]);
  const form = useSchemaForm<Values, ServiceCreatePayload>(
    schema,
    {
      name: service?.name ?? '',
      type: service?.type ?? '',
      token: '',
      readReceipts: service?.readReceipts ?? true,
      phoneNumberId: service?.internalData.phoneNumberId ?? '',
      wabaId: service?.internalData.wabaId ?? '',
      accessToken: '',
      appSecret: '',
      registrationPin: '',
    },
    'service',
  );
  const save = useSaveService(service?.id);
  const type = form.watch('type');
  // 'Conectar com a Meta' where the operator configured a Meta app (asked of the server, for a new connection only).
  const signup = useEmbeddedSignupConfig(mode === 'create' && type === 'whatsapp_cloud');
  const onSubmit = form.handleSubmit((payload) => {
    // An edit sends only what changed: a credential sent is checked with Meta again.
    const stored = service?.internalData;
    const body = service
      ? {
          name: payload.name,
          ...(payload.token ? { token: payload.token } : {}),
          ...(payload.readReceipts !== undefined ? { readReceipts: payload.readReceipts } : {}),
          ...(payload.phoneNumberId && payload.phoneNumberId !== stored?.phoneNumberId ? { phoneNumberId: payload.phoneNumberId } : {}),
          ...(payload.wabaId && payload.wabaId !== stored?.wabaId ? { wabaId: payload.wabaId } : {}),
          ...(payload.accessToken ? { accessToken: payload.accessToken } : {}),
          ...(payload.appSecret ? { appSecret: payload.appSecret } : {}),
          ...(payload.registrationPin ? { registrationPin: payload.registrationPin } : {}),
        }
      : payload;
    save.mutate(body, {
      onSuccess: onSaved,
      onError: (error) => {
        if (error instanceof ApiError && error.details.length) form.setServerErrors(error.details);
      },
    });
  });
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <InputField label="Nome" required autoComplete="off" {...form.field('name')} />
      <SelectField
        label="Tipo"
        required
        disabled={mode === 'edit'}
        placeholder="Selecione o tipo"
        options={formTypes(service).map((t) => ({ value: t, label: serviceTypeLabels[t] }))}
        {...form.field('type')}
      />
      {type === 'telegram' ? (
        <InputField
          label="Token do Telegram"
          required={mode === 'create' || !service?.internalData.token}
          autoComplete="off"
          placeholder={service?.internalData.token ?? '123456789:ABCdefGhIJKlmNoPQRsTUVwxyZ'}
          hint={
            <>
              Crie um bot com o <strong>@BotFather</strong> no Telegram (comando /newbot) e cole aqui o token que ele enviar.
              {service?.internalData.token ? ' Deixe em branco para manter o token atual.' : ''}
            </>
          }
          {...form.field('token')}
        />
      ) : null}
      {type === 'whatsapp_cloud' && signup.data?.available ? (
        <>
          <EmbeddedSignup
            appId={signup.data.appId}
            configId={signup.data.configId}
            connectionName={async () => ((await form.trigger('name')) ? form.getValues('name').trim() : null)}
            readReceipts={form.watch('readReceipts')}
            onConnected={onSaved}
          />
          <p className="text-center text-xs font-medium text-fg-muted">{embeddedSignupTexts.orTyped}</p>
        </>
      ) : null}
      {type === 'whatsapp_cloud' ? <CloudCredentialFields service={service} field={form.field} /> : null}
      {type === 'whatsapp' || type === 'whatsapp_cloud' ? <CheckboxField label={readReceiptsLabel} {...form.field('readReceipts')} /> : null}
      <FormActions onCancel={onClose} saving={save.isPending} editing={!!service} />
    </form>
  );
}

/** 'Nova conexão' / 'Editar conexão'. */
export function ServiceFormModal({ id, onClose, onSaved }: { id?: string; onClose: () => void; onSaved: () => void }) {
  const service = useService(id);
  return (
    <Dialog open onClose={onClose} title={id ? 'Editar conexão' : 'Nova conexão'}>
      {id && !service.data ? <DialogLoading /> : <ServiceForm key={service.data?.id ?? 'new'} service={service.data} onClose={onClose} onSaved={onSaved} />}
    </Dialog>
  );
}

/**
 * 'Código QR para {name}': live through realtime, closes once the connection is connected. A
 * WhatsApp connection waiting to be paired can switch to 'Conectar com número de telefone' (a code
 * typed on the phone instead of the QR).
 */
export function ServiceQrModal({ id, onClose }: { id: string; onClose: () => void }) {
  const service = useService(id);
  const [wasWaiting, setWasWaiting] = useState(false);
  const [mode, setMode] = useState<'qr' | 'phone'>();
  const status = service.data?.status;
  useEffect(() => {
    if (status && status !== 'connected') setWasWaiting(true);
    if (status === 'connected' && wasWaiting) onClose();
  }, [status, wasWaiting, onClose]);
  const qr = service.data?.data.qrCode;
  // A run that pairs by code opens on its code.
  const showing = mode ?? (service.data?.data.pairingCode ? 'phone' : 'qr');
  return (
    <Dialog open onClose={onClose} title={`Código QR para ${service.data?.name ?? ''}`}>
      {!service.data ? (
        <DialogLoading />
      ) : service.data.type === 'whatsapp_cloud' ? (
        <p className="py-4 text-center text-sm text-fg-muted">
          Esta conexão usa a API oficial do WhatsApp e não tem código QR: ela se conecta com as credenciais da Meta.
        </p>
      ) : showing === 'phone' ? (
        <PairByPhone service={service.data} onBackToQr={() => setMode('qr')} />
      ) : (
        <div className="space-y-4">
          {qr ? (
            <div className="flex flex-col items-center gap-3 text-center">
              <p className="text-sm text-fg-muted">Escaneie o código QR abaixo com seu aplicativo WhatsApp/Telegram</p>
              <img src={qr} alt={`Código QR da conexão ${service.data.name}`} width={300} height={300} className="rounded-lg bg-white p-2" />
            </div>
          ) : (
            <div className="space-y-1 py-4 text-center">
              <p className="text-sm font-medium text-fg">Nenhum código QR disponível no momento.</p>
              <p className="text-sm text-fg-muted">Tente reiniciar o serviço para gerar um novo código QR.</p>
            </div>
          )}
          {canPairByPhone(service.data) ? (
            <div className="flex flex-col items-center gap-1 border-t border-border pt-4 text-center">
              <p className="text-xs text-fg-muted">O WhatsApp da empresa está neste mesmo celular?</p>
              <PairByPhoneSwitch onClick={() => setMode('phone')} />
            </div>
          ) : null}
        </div>
      )}
    </Dialog>
  );
}

/** WhatsApp (API oficial): the number as Meta answered, its quality and the ids (the secrets are never shown). */
function cloudRows(s: Service): DetailRow[] {
  const rows: DetailRow[] = [];
  if (s.verifiedName) rows.push(['Nome verificado', s.verifiedName]);
  if (s.displayPhoneNumber) rows.push(['Número', s.displayPhoneNumber]);
  if (s.qualityRating) rows.push(['Qualidade do número', <CloudQualityBadge key="quality" rating={s.qualityRating} />]);
  if (s.internalData.phoneNumberId) rows.push(['ID do número de telefone', s.internalData.phoneNumberId, 'font-mono text-xs break-all text-fg']);
  if (s.internalData.wabaId) rows.push(['ID da conta do WhatsApp Business (WABA)', s.internalData.wabaId, 'font-mono text-xs break-all text-fg']);
  // Answered to admins only: what goes into the Meta app's webhook settings.
  if (s.webhook) {
    rows.push(['URL de retorno do webhook', `${window.location.origin}${s.webhook.path}`, 'font-mono text-xs break-all text-fg']);
    rows.push(['Token de verificação do webhook', s.webhook.verifyToken, 'font-mono text-xs break-all text-fg']);
  }
  return rows;
}

/** 'Visualização da conexão': ID, name, created, updated, type (and a Cloud API number's details). */
export function ServiceViewModal({ id, onClose }: { id: string; onClose: () => void }) {
  const s = useService(id).data;
  const rows: DetailRow[] | undefined = s && [
    ['ID', s.id, 'font-mono text-xs break-all text-fg'],
    ['Nome', s.name],
    ['Criado em', formatDateTime(s.createdAt)],
    ['Atualizado em', formatDateTime(s.updatedAt)],
    ['Tipo', <ServiceType key="type" type={s.type} />],
    ...(s.type === 'whatsapp_cloud' ? cloudRows(s) : []),
  ];
  return <DetailsDialog title="Visualização da conexão" rows={rows} onClose={onClose} />;
}
