import { Link, useSearchParams } from 'react-router';
import { MailCheck } from 'lucide-react';
import { AuthHeading } from '#web/components/layouts/auth-layout.tsx';
import { Alert } from '#web/components/ui/misc.tsx';
import { VerifyEmailForm } from '#web/features/auth/components/verify-email-form.tsx';
import { useSession } from '#web/lib/auth.ts';
import { usePageMeta } from '#web/lib/seo.ts';

const linkClass = 'font-medium text-brand underline underline-offset-4';

/**
 * 'Verificar e-mail', open to everyone: a newcomer activates the account; a signed-in user (the link
 * of an e-mail change, opened in the browser they use the app in) confirms the new address.
 */
export default function VerifyEmailPage() {
  usePageMeta({ title: 'Verificar e-mail', noindex: true });
  const [params] = useSearchParams();
  const signedIn = Boolean(useSession().accessToken);
  const userId = params.get('userId')?.trim() ?? '';
  const verifyCode = params.get('verifyCode')?.trim() ?? '';

  return (
    <>
      <span className="mb-6 flex size-12 items-center justify-center rounded-xl bg-brand-soft text-brand-soft-fg">
        <MailCheck className="size-6" aria-hidden="true" />
      </span>
      <AuthHeading
        title="Verificar e-mail"
        subtitle={
          signedIn
            ? 'Enviamos um código de 6 dígitos para o novo endereço de e-mail. Digite-o abaixo para confirmá-lo.'
            : 'Enviamos um código de 6 dígitos para o seu e-mail. Digite-o abaixo para ativar sua conta.'
        }
      />
      {userId ? (
        <VerifyEmailForm userId={userId} initialCode={verifyCode} />
      ) : (
        <Alert tone="warning" title="Link de verificação incompleto">
          {signedIn ? (
            <>
              Abra o link que enviamos para o seu e-mail ou{' '}
              <Link to="/inbox" className={linkClass}>
                volte para a caixa de entrada
              </Link>
              .
            </>
          ) : (
            <>
              Abra o link que enviamos para o seu e-mail ou{' '}
              <Link to="/login" className={linkClass}>
                entre na sua conta
              </Link>
              .
            </>
          )}
        </Alert>
      )}
    </>
  );
}
