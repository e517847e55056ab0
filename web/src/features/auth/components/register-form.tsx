import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { registerForm } from '#contracts/auth.ts';
import { Button } from '#web/components/ui/button.tsx';
import { CheckboxField, InputField, PasswordField } from '#web/components/ui/field.tsx';
import { ApiError } from '#web/lib/api-client.ts';
import { useSchemaForm } from '#web/lib/form.ts';
import { showToast } from '#web/lib/notify.ts';
import { useRegister } from '#web/features/auth/api/register.ts';
import { PasswordStrength } from './password-strength.tsx';

export const registerSuccessText = 'Usuário criado com sucesso';
export const registerRedirectMs = 1000;

/**
 * Sign-up. The answer's token is not kept: the e-mail is verified first (a guest-only screen),
 * then the person signs in. See ADR-0023.
 */
export function RegisterForm() {
  const navigate = useNavigate();
  const register = useRegister();
  const [done, setDone] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const form = useSchemaForm(registerForm, { name: '', email: '', password: '', terms: false }, 'register');

  useEffect(() => () => clearTimeout(timer.current), []);

  const onSubmit = form.handleSubmit((data) => {
    register.mutate(
      { name: data.name, email: data.email, password: data.password },
      {
        onSuccess: (answer) => {
          setDone(true);
          showToast({ tone: 'success', title: registerSuccessText });
          timer.current = setTimeout(() => navigate(`/verify-email?userId=${encodeURIComponent(answer.id)}`), registerRedirectMs);
        },
        onError: (error) => {
          if (error instanceof ApiError && error.details.length) form.setServerErrors(error.details);
        },
      },
    );
  });

  return (
    <>
      <form onSubmit={onSubmit} noValidate className="space-y-5">
        <InputField label="Nome" autoComplete="name" required {...form.field('name')} />
        <InputField label="E-mail" type="email" autoComplete="email" inputMode="email" required {...form.field('email')} />
        <div className="space-y-2">
          <PasswordField
            label="Senha"
            autoComplete="new-password"
            required
            hint="Use 8 ou mais caracteres, com letras maiúsculas e minúsculas, números e símbolos."
            {...form.field('password')}
          />
          <PasswordStrength password={form.watch('password')} />
        </div>
        <CheckboxField
          label={
            <>
              Li e aceito os{' '}
              <Link to="/terms" target="_blank" className="font-medium text-brand underline underline-offset-4">
                Termos de uso
              </Link>{' '}
              e a{' '}
              <Link to="/privacy" target="_blank" className="font-medium text-brand underline underline-offset-4">
                Política de privacidade
              </Link>
            </>
          }
          {...form.field('terms')}
        />
        <Button type="submit" size="lg" className="w-full" loading={register.isPending} loadingText="Criando conta..." disabled={done}>
          Criar conta grátis
        </Button>
      </form>
      <p className="mt-8 text-center text-sm text-fg-muted">
        Já tem uma conta?{' '}
        <Link to="/login" className="font-medium text-brand underline-offset-4 hover:underline">
          Entrar
        </Link>
      </p>
    </>
  );
}
