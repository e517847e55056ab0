import { AuthHeading } from '#web/components/layouts/auth-layout.tsx';
import { ForgotPasswordForm } from '#web/features/auth/components/forgot-password-form.tsx';
import { usePageMeta } from '#web/lib/seo.ts';

export default function ForgotPasswordPage() {
  usePageMeta({ title: 'Recuperar senha', description: 'Receba por e-mail um link para criar uma nova senha no Conversa.' });
  return (
    <>
      <AuthHeading title="Recuperar senha" subtitle="Informe o e-mail da sua conta e enviaremos um link com um código para você criar uma nova senha." />
      <ForgotPasswordForm />
    </>
  );
}
