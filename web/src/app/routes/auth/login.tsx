import { AuthHeading } from '#web/components/layouts/auth-layout.tsx';
import { LoginForm } from '#web/features/auth/components/login-form.tsx';
import { usePageMeta } from '#web/lib/seo.ts';

export default function LoginPage() {
  usePageMeta({ title: 'Entrar na sua conta', description: 'Acesse o Conversa e continue atendendo seus clientes no WhatsApp e no Telegram.' });
  return (
    <>
      <AuthHeading title="Entrar na sua conta" subtitle="Que bom ver você de novo. Acesse para continuar atendendo seus clientes." />
      <LoginForm />
    </>
  );
}
