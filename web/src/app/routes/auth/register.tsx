import { AuthHeading } from '#web/components/layouts/auth-layout.tsx';
import { RegisterForm } from '#web/features/auth/components/register-form.tsx';
import { usePageMeta } from '#web/lib/seo.ts';

export default function RegisterPage() {
  usePageMeta({
    title: 'Criar uma nova conta',
    description: 'Crie sua conta grátis no Conversa em menos de 2 minutos, sem cartão de crédito.',
  });
  return (
    <>
      <AuthHeading title="Criar uma nova conta" subtitle="Grátis, em menos de 2 minutos e sem cartão de crédito." />
      <RegisterForm />
    </>
  );
}
