import { Suspense } from 'react';
import { lazyPage } from '#web/app/lazy-page.tsx';
import { AuthHeading } from '#web/components/layouts/auth-layout.tsx';
import { usePageMeta } from '#web/lib/seo.ts';
import { useHydrated } from '#web/lib/use-hydrated.ts';

// The heading (the page's largest text, its LCP) paints with the layout; the form and what it needs
// (react-hook-form, zod, the query client) follow in their own chunks, asked for as this one runs.
const LoginForm = lazyPage(() => import('#web/features/auth/components/login-form.tsx').then((m) => ({ default: m.LoginForm })), { data: true });
LoginForm.preload();

export default function LoginPage() {
  // Not in the prerendered page: a form sent before hydration would be a plain GET with the password.
  const hydrated = useHydrated();
  usePageMeta({ title: 'Entrar na sua conta', description: 'Acesse o Conversa e continue atendendo seus clientes no WhatsApp e no Telegram.' });
  return (
    <>
      <AuthHeading title="Entrar na sua conta" subtitle="Que bom ver você de novo. Acesse para continuar atendendo seus clientes." />
      {/* The form's own height (fields, button, the sign-up line), so nothing moves when it arrives. */}
      {hydrated ? (
        <Suspense fallback={<div className="h-[272px]" />}>
          <LoginForm />
        </Suspense>
      ) : (
        <div className="h-[272px]" />
      )}
    </>
  );
}
