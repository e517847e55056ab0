import { Link, useSearchParams } from 'react-router';
import { AuthHeading } from '#web/components/layouts/auth-layout.tsx';
import { Alert } from '#web/components/ui/misc.tsx';
import { ButtonLink } from '#web/components/ui/button.tsx';
import { ResetPasswordForm } from '#web/features/auth/components/reset-password-form.tsx';
import { usePageMeta } from '#web/lib/seo.ts';

export default function ResetPasswordPage() {
  usePageMeta({ title: 'Redefinir senha', noindex: true });
  const [params] = useSearchParams();
  const verifyCode = params.get('verifyCode')?.trim() ?? '';
  const email = params.get('email')?.trim() ?? '';
  const valid = /^\d{6}$/.test(verifyCode) && email.includes('@');

  return (
    <>
      <AuthHeading
        title="Redefinir senha"
        subtitle={
          valid ? (
            <>
              Crie uma nova senha para <strong className="text-fg">{email}</strong>.
            </>
          ) : undefined
        }
      />
      {valid ? (
        <ResetPasswordForm email={email} verifyCode={verifyCode} />
      ) : (
        <div className="space-y-5">
          <Alert tone="warning" title="Link incompleto ou expirado">
            Abra o link exatamente como chegou no seu e-mail ou peça um novo link de recuperação.
          </Alert>
          <ButtonLink to="/forgot-password" size="lg" className="w-full">
            Pedir um novo link
          </ButtonLink>
          <p className="text-center text-sm text-fg-muted">
            <Link to="/login" className="font-medium text-brand underline-offset-4 hover:underline">
              Voltar para o login
            </Link>
          </p>
        </div>
      )}
    </>
  );
}
