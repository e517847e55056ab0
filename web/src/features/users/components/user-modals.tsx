import { useMemo } from 'react';
import { passwordStrength, strengthLabels } from '#contracts/password.ts';
import { keepPasswordHint, userForm } from '#contracts/users.ts';
import type { User } from '#contracts/entities.ts';
import { DetailsDialog, type DetailRow } from '#web/components/ui/details-dialog.tsx';
import { Dialog } from '#web/components/ui/dialog.tsx';
import { FormActions } from '#web/components/ui/form-actions.tsx';
import { CheckboxField, InputField, PasswordField } from '#web/components/ui/field.tsx';
import { Alert } from '#web/components/ui/misc.tsx';
import { DialogLoading } from '#web/components/ui/spinner.tsx';
import { ApiError } from '#web/lib/api-client.ts';
import { useSession } from '#web/lib/auth.ts';
import { cn } from '#web/lib/cn.ts';
import { formatDateTime } from '#web/lib/format.ts';
import { useSchemaForm } from '#web/lib/form.ts';
import { showToast } from '#web/lib/notify.ts';
import { useUser } from '#web/features/users/api/get-user.ts';
import { useSaveUser } from '#web/features/users/api/save-user.ts';

const barColours = ['bg-border-strong', 'bg-danger', 'bg-warning', 'bg-brand', 'bg-success'];

/** One bar, 25% per level, and 'Força da senha: {level}'. */
export function PasswordStrengthBar({ password }: { password: string }) {
  const level = passwordStrength(password);
  return (
    <div className="space-y-1.5">
      {/* biome-ignore lint/a11y/useSemanticElements: a bar coloured by level, which a native <meter> cannot be styled to match across browsers */}
      <div
        className="h-1.5 overflow-hidden rounded-full bg-surface-2"
        role="meter"
        aria-label="Força da senha"
        aria-valuemin={0}
        aria-valuemax={4}
        aria-valuenow={level}
        aria-valuetext={strengthLabels[level]}
      >
        <div className={cn('h-full rounded-full transition-[width]', barColours[level])} style={{ width: `${level * 25}%` }} />
      </div>
      <p className="text-xs text-fg-muted" aria-live="polite">
        Força da senha: {strengthLabels[level]}
      </p>
    </div>
  );
}

/**
 * Under the Email field of a user whose new address is not confirmed yet: the field holds the new
 * one, so the hint names the one still in force too (typed back, it cancels the change).
 */
function PendingEmailHint({ pendingEmail, email }: { pendingEmail: string; email: string }) {
  return (
    <span className="break-words">
      Aguardando confirmação de {pendingEmail}. Até lá, o e-mail continua sendo {email}.
    </span>
  );
}

/**
 * The toast of a save. A new e-mail does not take effect at once: the server keeps the old one and
 * e-mails a code to the new one (`pendingEmail`), which the toast says when this save asked for it;
 * the current address sent back cancels a change that was waiting, which it says too.
 */
function savedToast(before: User | undefined, saved: User | undefined): Parameters<typeof showToast>[0] {
  if (!before) return { tone: 'success', title: 'Usuário criado' };
  const title = 'Usuário atualizado';
  if (saved?.pendingEmail && saved.pendingEmail !== before.pendingEmail) {
    return {
      tone: 'success',
      title,
      message: `Enviamos um código de confirmação para ${saved.pendingEmail}. O e-mail só muda depois da confirmação.`,
      // Long enough to read the address.
      duration: 8000,
    };
  }
  if (before.pendingEmail && saved && !saved.pendingEmail) {
    return { tone: 'success', title, message: `A troca de e-mail para ${before.pendingEmail} foi cancelada.` };
  }
  return { tone: 'success', title };
}

type Values = { name: string; email: string; password: string; confirmPassword: string; isAdmin: boolean; skipSignature: boolean };

function UserForm({ user, onClose, onSaved }: { user?: User; onClose: () => void; onSaved: () => void }) {
  const { user: me } = useSession();
  const mode = user ? 'edit' : 'create';
  const schema = useMemo(() => userForm(mode), [mode]);
  // 'Não assinar minhas mensagens' is each person's own: shown on their own form only.
  const self = !!user && user.id === me?.id;
  const form = useSchemaForm<Values, { name: string; email: string; password: string; isAdmin: boolean; skipSignature: boolean }>(
    schema,
    // A change waiting for its code starts from the address asked for: saved as it is, it stays
    // waiting (no new code); the current address typed back cancels it (the server's rule).
    {
      name: user?.name ?? '',
      email: user?.pendingEmail || user?.email || '',
      password: '',
      confirmPassword: '',
      isAdmin: user?.isAdmin ?? false,
      skipSignature: user?.skipSignature ?? false,
    },
    'user',
  );
  const save = useSaveUser(user?.id);
  const onSubmit = form.handleSubmit((data) => {
    const payload = {
      name: data.name,
      email: data.email,
      ...(data.password ? { password: data.password } : {}),
      ...(me?.isAdmin ? { isAdmin: data.isAdmin } : {}),
      ...(self ? { skipSignature: data.skipSignature } : {}),
    };
    save.mutate(payload as never, {
      onSuccess: (saved) => {
        showToast(savedToast(user, saved));
        onSaved();
      },
      onError: (error) => {
        if (error instanceof ApiError && error.details.length) form.setServerErrors(error.details);
      },
    });
  });
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <InputField label="Nome" required autoComplete="off" {...form.field('name')} />
      <InputField
        label="Email"
        type="email"
        required
        autoComplete="off"
        hint={user?.pendingEmail ? <PendingEmailHint pendingEmail={user.pendingEmail} email={user.email} /> : undefined}
        {...form.field('email')}
      />
      <PasswordField
        label="Senha"
        required={mode === 'create'}
        autoComplete="new-password"
        hint={mode === 'edit' ? keepPasswordHint : undefined}
        {...form.field('password', { deps: ['confirmPassword'] })}
      />
      <PasswordStrengthBar password={form.watch('password')} />
      <PasswordField label="Confirmar senha" required={mode === 'create'} autoComplete="new-password" {...form.field('confirmPassword')} />
      {me?.isAdmin ? <CheckboxField label="Administrador" {...form.field('isAdmin')} disabled={user?.isOwner} /> : null}
      {self ? (
        <CheckboxField label="Não assinar minhas mensagens (quando a conta assina as mensagens com o nome do atendente)" {...form.field('skipSignature')} />
      ) : null}
      {mode === 'create' ? <Alert tone="info">Um e-mail com as instruções de ativação da conta será enviado para o usuário.</Alert> : null}
      <FormActions onCancel={onClose} saving={save.isPending} editing={!!user} />
    </form>
  );
}

/** 'Criar usuário' / 'Editar usuário'. */
export function UserFormModal({ id, onClose, onSaved }: { id?: string; onClose: () => void; onSaved: () => void }) {
  const user = useUser(id);
  return (
    <Dialog open onClose={onClose} title={id ? 'Editar usuário' : 'Criar usuário'}>
      {id && !user.data ? <DialogLoading /> : <UserForm key={user.data?.id ?? 'new'} user={user.data} onClose={onClose} onSaved={onSaved} />}
    </Dialog>
  );
}

/** 'Visualização de usuário': ID, name, email (and a pending one), created, updated, Administrador Sim/Não. */
export function UserViewModal({ id, onClose }: { id: string; onClose: () => void }) {
  const u = useUser(id).data;
  const rows: DetailRow[] | undefined = u && [
    ['ID', u.id, 'font-mono text-xs break-all text-fg'],
    ['Nome', u.name],
    ['Email', u.email, 'break-all text-fg'],
    ...(u.pendingEmail ? [['E-mail pendente', u.pendingEmail, 'break-all text-fg'] satisfies DetailRow] : []),
    ['Criado em', formatDateTime(u.createdAt)],
    ['Atualizado em', formatDateTime(u.updatedAt)],
    ['Administrador', u.isAdmin ? 'Sim' : 'Não'],
  ];
  return <DetailsDialog title="Visualização de usuário" rows={rows} onClose={onClose} />;
}
