import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { verifyEmailForm } from '#contracts/auth.ts';
import { Button } from '#web/components/ui/button.tsx';
import { InputField } from '#web/components/ui/field.tsx';
import { useSchemaForm } from '#web/lib/form.ts';
import { userKeys } from '#web/api/keys.ts';
import { getAccessToken } from '#web/lib/auth.ts';
import { showToast } from '#web/lib/notify.ts';
import { refreshSessionUser } from '#web/features/auth/api/get-me.ts';
import { useResendVerification } from '#web/features/auth/api/resend-verification.ts';
import { useVerifyEmail } from '#web/features/auth/api/verify-email.ts';

export const verifySuccessText = 'Email confirmado com sucesso';
export const verifyRedirectMs = 1000;

/**
 * The code form of /verify-email, for a newcomer (signed out) and for a signed-in user confirming a
 * new address: then the session's user and the cached users are read again, so the new address
 * shows, before going on to / (which sends a signed-in user to /inbox).
 */
export function VerifyEmailForm({ userId, initialCode = '' }: { userId: string; initialCode?: string }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const verify = useVerifyEmail();
  const resend = useResendVerification();
  const [done, setDone] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const form = useSchemaForm(verifyEmailForm, { verifyCode: initialCode.replace(/\D/g, '').slice(0, 6) }, 'verify');

  useEffect(() => () => clearTimeout(timer.current), []);

  const onSubmit = form.handleSubmit((data) => {
    verify.mutate(
      { userId, verifyCode: data.verifyCode },
      {
        onSuccess: () => {
          setDone(true);
          showToast({ tone: 'success', title: verifySuccessText });
          if (getAccessToken()) {
            // A failure leaves the stored user until the next start (a 401 has signed out already).
            void refreshSessionUser().catch((error: unknown) => console.debug('Could not refresh the signed-in user', error));
            void queryClient.invalidateQueries({ queryKey: userKeys.all });
          }
          timer.current = setTimeout(() => navigate('/'), verifyRedirectMs);
        },
      },
    );
  });

  const code = form.field('verifyCode');

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5">
      <InputField
        label="Código de verificação"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        required
        placeholder="000000"
        className="h-14 text-center font-mono text-2xl tracking-[0.5em] placeholder:tracking-[0.5em]"
        hint="Digite os 6 números que enviamos para o seu e-mail."
        {...code}
        onChange={(event) => {
          // Only digits, at most 6, as typed.
          event.target.value = event.target.value.replace(/\D/g, '').slice(0, 6);
          void code.onChange(event);
        }}
      />
      <Button type="submit" size="lg" className="w-full" loading={verify.isPending} loadingText="Confirmando..." disabled={done}>
        Confirmar e-mail
      </Button>
      <p className="text-center text-sm text-fg-muted">
        Não recebeu o código?{' '}
        <Button
          variant="link"
          className="font-medium"
          loading={resend.isPending}
          onClick={() =>
            resend.mutate(
              { userId },
              { onSuccess: () => showToast({ tone: 'success', title: 'Código reenviado', message: 'Confira sua caixa de entrada e a pasta de spam.' }) },
            )
          }
        >
          Reenviar código
        </Button>
      </p>
    </form>
  );
}
