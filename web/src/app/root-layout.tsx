import { Link, Outlet, ScrollRestoration, isRouteErrorResponse, useMatches, useNavigation, useRouteError } from 'react-router';
import { WhatsAppWidget } from '../components/whatsapp-widget.tsx';
import { buttonClasses } from '../components/ui/button.tsx';
import { Logo } from '../components/ui/logo.tsx';

function NavigationProgress() {
  const navigation = useNavigation();
  if (navigation.state === 'idle') return null;
  return (
    <div className="fixed inset-x-0 top-0 z-[70] h-0.5 overflow-hidden" role="progressbar" aria-label="Carregando página">
      <div className="h-full w-1/3 animate-[progress_1s_ease-in-out_infinite] bg-brand" />
    </div>
  );
}

/** The frame of every page: skip link, scroll restoration, loading bar and the WhatsApp widget. */
export function RootLayout() {
  const matches = useMatches();
  const hideWidget = matches.some((m) => (m.handle as { hideWhatsApp?: boolean } | undefined)?.hideWhatsApp);
  return (
    <>
      <a
        href="#main-content"
        className="sr-only z-[80] rounded-lg bg-brand px-4 py-2 text-sm font-semibold text-brand-fg focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Pular para o conteúdo
      </a>
      <NavigationProgress />
      <Outlet />
      {hideWidget ? null : <WhatsAppWidget />}
      <ScrollRestoration />
    </>
  );
}

/** Shown when a page fails to load or render (e.g. a new version was deployed meanwhile). */
export function RouteError() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  if (!notFound) console.error(error);
  return (
    <div className="flex min-h-dvh flex-col items-center justify-center gap-6 px-6 text-center">
      <Logo />
      <div className="space-y-2">
        <h1 className="text-2xl font-semibold tracking-tight">{notFound ? 'Página não encontrada' : 'Algo deu errado'}</h1>
        <p className="max-w-md text-sm text-fg-muted">
          {notFound
            ? 'O endereço que você acessou não existe.'
            : 'Não conseguimos carregar esta página. Recarregue para tentar de novo; se o problema continuar, fale com o nosso suporte.'}
        </p>
      </div>
      <div className="flex gap-2">
        <button type="button" className={buttonClasses('primary')} onClick={() => window.location.reload()}>
          Recarregar
        </button>
        <Link to="/" className={buttonClasses('outline')}>
          Página inicial
        </Link>
      </div>
    </div>
  );
}
