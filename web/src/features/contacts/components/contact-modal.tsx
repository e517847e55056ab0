import { useMemo, useState } from 'react';
import { useController } from 'react-hook-form';
import { z } from 'zod';
import { contactPayload, contactRuleProblems, genderLabels, genders, type Contact, type ContactPayload } from '#contracts/contacts.ts';
import type { ServiceType } from '#contracts/service-labels.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog } from '#web/components/ui/dialog.tsx';
import { FormActions } from '#web/components/ui/form-actions.tsx';
import { InputField, SelectField } from '#web/components/ui/field.tsx';
import { Badge } from '#web/components/ui/misc.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { ApiError } from '#web/lib/api-client.ts';
import { useSession } from '#web/lib/auth.ts';
import { formatDateTime, initials } from '#web/lib/format.ts';
import { useSchemaForm } from '#web/lib/form.ts';
import { showToast } from '#web/lib/notify.ts';
import { useArchiveContact } from '#web/features/contacts/api/archive-contact.ts';
import { useContact } from '#web/api/get-contact.ts';
import { useSaveContact } from '#web/features/contacts/api/save-contact.ts';
import { ConnectionPicker, type PickedConnection } from './connection-picker.tsx';
import { countries } from './countries.ts';
import { OptOutNotice } from './opt-out-notice.tsx';

type Values = { name: string; serviceId: string; idFromService: string; phoneCountry: string; phoneNumber: string; email: string; gender: string };

const flatPath = (path: readonly PropertyKey[] | string) => {
  const parts = typeof path === 'string' ? path.split('.') : path.map(String);
  return parts[0] === 'data' ? (parts[1] ?? 'data') : (parts[0] ?? '');
};

export function toPayload(v: Values): unknown {
  return {
    name: v.name,
    serviceId: v.serviceId,
    gender: v.gender || null,
    idFromService: v.idFromService || null,
    data: { email: v.email || null, phoneNumber: v.phoneNumber || null, phoneCountry: v.phoneCountry || null },
  };
}

/** The modal's rules: the shared payload schema, then the connection and create/edit rules of docs/product.md#validation. */
export function contactFormSchema(mode: 'create' | 'edit', serviceType: ServiceType, original?: Contact) {
  return z.custom<Values>().transform((values, ctx) => {
    const parsed = contactPayload.safeParse(toPayload(values));
    if (!parsed.success) {
      for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: [flatPath(issue.path)] });
      return z.NEVER;
    }
    const problems = contactRuleProblems(parsed.data, { mode, serviceType, original });
    for (const [path, message] of problems) ctx.addIssue({ code: 'custom', message, path: [flatPath(path)] });
    return problems.length ? z.NEVER : parsed.data;
  });
}

function ContactForm({ contact, onClose, onSaved }: { contact?: Contact; onClose: () => void; onSaved: () => void }) {
  const { user } = useSession();
  const mode = contact ? 'edit' : 'create';
  const [connection, setConnection] = useState<PickedConnection | null>(contact?.service ?? null);
  const serviceType = connection?.type ?? 'whatsapp';
  const telegram = serviceType === 'telegram';
  const schema = useMemo(() => contactFormSchema(mode, serviceType, contact), [mode, serviceType, contact]);
  const form = useSchemaForm<Values, ContactPayload>(
    schema,
    {
      name: contact?.name ?? '',
      serviceId: contact?.serviceId ?? '',
      idFromService: contact?.idFromService ?? '',
      phoneCountry: contact?.data.phoneCountry ?? (contact ? '' : 'BR'),
      phoneNumber: contact?.data.phoneNumber ?? (contact ? '' : '55'),
      email: contact?.data.email ?? '',
      gender: contact?.gender ?? '',
    },
    'contact',
  );
  // The connection picker and the country (which also sets the dial code) are bound by hand.
  const service = useController({ control: form.control, name: 'serviceId' });
  const country = useController({ control: form.control, name: 'phoneCountry' });
  const save = useSaveContact(contact?.id);
  const archive = useArchiveContact();
  const list = useMemo(() => countries(), []);
  const locked = mode === 'edit' && !telegram;

  const onCountry = (code: string) => {
    const dial = list.find((c) => c.code === code)?.dial ?? '';
    const previous = list.find((c) => c.code === country.field.value)?.dial ?? '';
    const phone = form.getValues('phoneNumber').replace(/\D/g, '');
    country.field.onChange(code);
    if (!phone || phone === previous) form.setValue('phoneNumber', dial, { shouldValidate: form.formState.isSubmitted });
  };

  const onSubmit = form.handleSubmit((payload) => {
    save.mutate(payload, {
      onSuccess: () => {
        showToast({ tone: 'success', title: contact ? 'Contato atualizado' : 'Contato criado' });
        onSaved();
      },
      onError: (error) => {
        if (error instanceof ApiError && error.details.length) form.setServerErrors(error.details, flatPath);
      },
    });
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" id="contact-form">
      {contact ? (
        <div className="flex items-center gap-3 rounded-xl bg-surface-2 p-3">
          {contact.avatar?.url || contact.avatarUrl ? (
            <img src={contact.avatar?.url ?? contact.avatarUrl ?? ''} alt={`Foto de ${contact.name}`} className="size-12 rounded-full object-cover" />
          ) : (
            <span className="flex size-12 items-center justify-center rounded-full bg-brand-soft text-base font-semibold text-brand-soft-fg" aria-hidden="true">
              {initials(contact.name)}
            </span>
          )}
          <dl className="min-w-0 flex-1 text-xs text-fg-muted">
            <div className="flex gap-1">
              <dt>Criado em:</dt>
              <dd className="text-fg">{formatDateTime(contact.createdAt)}</dd>
            </div>
            {contact.archivedAt ? (
              <div className="flex gap-1">
                <dt>Arquivado em:</dt>
                <dd className="text-fg">{formatDateTime(contact.archivedAt)}</dd>
              </div>
            ) : null}
          </dl>
          {contact.archivedAt ? <Badge tone="warning">Arquivado</Badge> : null}
          {contact.archivedAt && user?.isAdmin ? (
            <Button
              variant="outline"
              size="sm"
              loading={archive.isPending}
              onClick={() =>
                archive.mutate({ id: contact.id, archive: false }, { onSuccess: () => showToast({ tone: 'success', title: 'Contato desarquivado' }) })
              }
            >
              Desarquivar
            </Button>
          ) : null}
        </div>
      ) : null}
      {contact ? <OptOutNotice contact={contact} canClear={!!user?.isAdmin} /> : null}
      <InputField label="Nome" required autoComplete="off" {...form.field('name')} />
      <ConnectionPicker
        id="contact-serviceId"
        inputRef={service.field.ref}
        value={connection}
        disabled={mode === 'edit'}
        error={service.fieldState.error?.message}
        onChange={(picked) => {
          setConnection(picked);
          service.field.onChange(picked.id);
        }}
      />
      {telegram ? (
        <InputField
          label="ID do Telegram"
          required={mode === 'create'}
          hint="O número de identificação do chat no Telegram."
          {...form.field('idFromService')}
        />
      ) : null}
      <div className="grid gap-4 sm:grid-cols-[minmax(0,11rem)_1fr]">
        <SelectField
          id="contact-phoneCountry"
          ref={country.field.ref}
          name={country.field.name}
          label="País"
          value={country.field.value}
          disabled={locked}
          onChange={(e) => onCountry(e.target.value)}
          onBlur={country.field.onBlur}
          error={country.fieldState.error?.message}
          options={[{ value: '', label: 'Selecione' }, ...list.map((c) => ({ value: c.code, label: `${c.name} (+${c.dial})` }))]}
        />
        <InputField
          label="Telefone"
          type="tel"
          inputMode="tel"
          required={!telegram}
          disabled={locked}
          hint="Com o código do país, só números."
          {...form.field('phoneNumber')}
        />
      </div>
      <InputField label="Email" type="email" autoComplete="off" {...form.field('email')} />
      <SelectField
        label="Gênero"
        {...form.field('gender')}
        options={[{ value: '', label: 'Não informado' }, ...genders.map((g) => ({ value: g, label: genderLabels[g] }))]}
      />
      <FormActions onCancel={onClose} saving={save.isPending} editing={!!contact} />
    </form>
  );
}

/** Create or edit a contact (docs/product.md#screens): /contacts/create and /contacts/{id}/edit. */
export function ContactModal({ id, onClose, onSaved }: { id?: string; onClose: () => void; onSaved: () => void }) {
  const contact = useContact(id);
  return (
    <Dialog open onClose={onClose} title={id ? 'Editar contato' : 'Novo contato'} size="lg">
      {id && !contact.data ? (
        <div className="flex items-center gap-2 py-6 text-sm text-fg-muted" role="status">
          <Spinner className="size-4 text-brand" /> Carregando...
        </div>
      ) : (
        <ContactForm key={contact.data?.id ?? 'new'} contact={contact.data} onClose={onClose} onSaved={onSaved} />
      )}
    </Dialog>
  );
}
