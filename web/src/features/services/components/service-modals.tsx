import { useEffect, useMemo, useState } from 'react';
import { z } from 'zod';
import { requiredText } from '#contracts/fields.ts';
import { connectionFormTypes, serviceTypeLabels } from '#contracts/service-labels.ts';
import {
  readReceiptsLabel,
  serviceCreatePayload,
  serviceUpdatePayload,
  telegramTokenRequiredText,
  type Service,
  type ServiceCreatePayload,
} from '#contracts/services.ts';
import { DetailsDialog, type DetailRow } from '#web/components/ui/details-dialog.tsx';
import { Dialog } from '#web/components/ui/dialog.tsx';
import { FormActions } from '#web/components/ui/form-actions.tsx';
import { CheckboxField, InputField, SelectField } from '#web/components/ui/field.tsx';
import { DialogLoading } from '#web/components/ui/spinner.tsx';
import { ApiError } from '#web/lib/api-client.ts';
import { formatDateTime } from '#web/lib/format.ts';
import { useSchemaForm } from '#web/lib/form.ts';
import { useService } from '#web/features/services/api/get-service.ts';
import { useSaveService } from '#web/features/services/api/save-service.ts';
import { canPairByPhone, PairByPhone, PairByPhoneSwitch } from './pairing-code.tsx';
import { ServiceType } from './service-type.tsx';

type Values = { name: string; type: string; token: string; readReceipts: boolean };

/** The form's rules: name and type required; for Telegram the token ('Token do Telegram é obrigatório' when blank). */
export function serviceFormSchema(mode: 'create' | 'edit', tokenStored: boolean) {
  return z.custom<Values>().transform((v, ctx) => {
    const type = v.type || undefined;
    const token = v.token.trim() ? v.token : undefined;
    const schema = mode === 'create' ? serviceCreatePayload : serviceUpdatePayload;
    // Read receipts are a WhatsApp setting: other channels send none (and keep the default).
    const readReceipts = type === 'whatsapp' ? v.readReceipts : undefined;
    const parsed = schema.safeParse({ name: v.name, type, token, readReceipts });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const path = String(issue.path[0] ?? '');
        ctx.addIssue({ code: 'custom', path: [path], message: path === 'type' ? requiredText : issue.message });
      }
      return z.NEVER;
    }
    if (mode === 'edit' && v.type === 'telegram' && !tokenStored && !token) {
      ctx.addIssue({ code: 'custom', path: ['token'], message: telegramTokenRequiredText });
      return z.NEVER;
    }
    return parsed.data as ServiceCreatePayload;
  });
}

function ServiceForm({ service, onClose, onSaved }: { service?: Service; onClose: () => void; onSaved: () => void }) {
  const mode = service ? 'edit' : 'create';
  const schema = useMemo(() => serviceFormSchema(mode, !!service?.internalData.token), [mode, service]);
  const form = useSchemaForm<Values, ServiceCreatePayload>(
    schema,
    { name: service?.name ?? '', type: service?.type ?? '', token: '', readReceipts: service?.readReceipts ?? true },
    'service',
  );
  const save = useSaveService(service?.id);
  const onSubmit = form.handleSubmit((payload) => {
    const body = service
      ? {
          name: payload.name,
          ...(payload.token ? { token: payload.token } : {}),
          ...(payload.readReceipts !== undefined ? { readReceipts: payload.readReceipts } : {}),
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
        options={connectionFormTypes.map((t) => ({ value: t, label: serviceTypeLabels[t] }))}
        {...form.field('type')}
      />
      {form.watch('type') === 'telegram' ? (
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
      {form.watch('type') === 'whatsapp' ? <CheckboxField label={readReceiptsLabel} {...form.field('readReceipts')} /> : null}
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

/** 'Visualização da conexão': ID, name, created, updated, type. */
export function ServiceViewModal({ id, onClose }: { id: string; onClose: () => void }) {
  const s = useService(id).data;
  const rows: DetailRow[] | undefined = s && [
    ['ID', s.id, 'font-mono text-xs break-all text-fg'],
    ['Nome', s.name],
    ['Criado em', formatDateTime(s.createdAt)],
    ['Atualizado em', formatDateTime(s.updatedAt)],
    ['Tipo', <ServiceType key="type" type={s.type} />],
  ];
  return <DetailsDialog title="Visualização da conexão" rows={rows} onClose={onClose} />;
}
