import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { forgotPasswordPayload } from '#contracts/auth.ts';
import { Alert } from '#web/components/ui/misc.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { InputField } from '#web/components/ui/field.tsx';
import { useSchemaForm } from '#web/lib/form.ts';
import { showToast } from '#web/lib/notify.ts';
import { useForgotPassword } from '#web/features/auth/api/forgot-password.ts';

export const forgotSuccessText = 'Email enviado com sucesso, você será redirecionado para o login';
export const forgotRedirectMs = 2000;

export function ForgotPasswordForm() {
  const navigate = useNavigate();
  const forgot = useForgotPassword();
  const [done, setDone] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const form = useSchemaForm(forgotPasswordPayload, { email: '' }, 'forgot');

  useEffect(() => () => clearTimeout(timer.current), []);

  const onSubmit = form.handleSubmit((data) => {
    forgot.mutate(data, {
      onSuccess: () => {
        setDone(true);
        showToast({ tone: 'success', title: forgotSuccessText });
        timer.current = setTimeout(() => navigate('/'), forgotRedirectMs);
      },
    });
  });

  return (
    <>
      {done ? (
        <Alert tone="success" title="Confira seu e-mail" className="mb-5">
          Se houver uma conta com esse endereço, você receberá um link para criar uma nova senha.
        </Alert>
      ) : null}
      <form onSubmit={onSubmit} noValidate className="space-y-5">
        <InputField label="E-mail" type="email" autoComplete="email" inputMode="email" required {...form.field('email')} />
        <Button type="submit" size="lg" className="w-full" loading={forgot.isPending} loadingText="Enviando..." disabled={done}>
          Enviar link de recuperação
        </Button>
      </form>
      <p className="mt-8 text-center text-sm text-fg-muted">
        Lembrou a senha?{' '}
        <Link to="/login" className="font-medium text-brand underline-offset-4 hover:underline">
          Voltar para o login
        </Link>
      </p>
    </>
  );
}
