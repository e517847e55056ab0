import { Component, lazy, Suspense, useEffect, useState, type ErrorInfo, type ReactNode } from 'react';
import { Outlet, useLocation, useNavigationType } from 'react-router';
import { widgetFetchAheadMs, widgetShowDelayMs } from '#web/components/whatsapp-widget-timing.ts';
import { buttonClasses } from '#web/components/ui/button.tsx';
import { Logo } from '#web/components/ui/logo.tsx';
import { storage, storageKeys } from '#web/lib/storage.ts';
import { appPaths } from './static-routes.ts';

/** New pages start at the top; links with a hash scroll to their section (once it has rendered). */
function ScrollManager() {
  const { pathname, hash } = useLocation();
  const type = useNavigationType();
  // biome-ignore lint/correctness/useExhaustiveDependencies: pathname is the trigger: a new page starts at the top
  useEffect(() => {
    if (hash) {
      // The section may be in a chunk still on its way (the landing's lower sections): look for
      // it on each frame for up to 5 s.
      const until = performance.now() + 5000;
      let frame = 0;
      const seek = () => {
        const target = document.getElementById(decodeURIComponent(hash.slice(1)));
        if (target) target.scrollIntoView({ block: 'start' });
        else if (performance.now() < until) frame = requestAnimationFrame(seek);
      };
      seek();
      return () => cancelAnimationFrame(frame);
    }
    if (type !== 'POP') window.scrollTo(0, 0);
  }, [pathname, hash, type]);
  return null;
}

/** Shown when a page fails to load or render (e.g. a new version was deployed meanwhile). */
export class RouteErrorBoundary extends Component<{ children: ReactNode; resetKey: string }, { error: unknown }> {
  override state = { error: null as unknown };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override componentDidUpdate(previous: { resetKey: string }) {
    if (previous.resetKey !== this.props.resetKey && this.state.error) this.setState({ error: null });
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <div className="flex min-h-dvh flex-col items-center justify-center gap-6 px-6 text-center">
        <Logo />
        <div className="space-y-2">
          <h1 className="text-2xl font-semibold tracking-tight">Algo deu errado</h1>
          <p className="max-w-md text-sm text-fg-muted">
            Não conseguimos carregar esta página. Recarregue para tentar de novo; se o problema continuar, fale com o nosso suporte.
          </p>
        </div>
        <div className="flex gap-2">
          <button type="button" className={buttonClasses('primary')} onClick={() => window.location.reload()}>
            Recarregar
          </button>
          <a href="/" className={buttonClasses('outline')}>
            Página inicial
          </a>
        </div>
      </div>
    );
  }
}

const loadWidget = () => import('#web/components/whatsapp-widget.tsx');
// Offline, or a deploy removed the chunk: no widget, rather than an error outside every boundary.
const WhatsAppWidget = lazy(() =>
  loadWidget().then(
    (m) => ({ default: m.WhatsAppWidget }),
    () => ({ default: () => null }),
  ),
);

/**
 * The floating WhatsApp button, 30 s after load unless dismissed for good: its code is fetched a
 * few seconds before, so a page's first load carries none of it (the landing's JavaScript budget,
 * tests/e2e/public-split.test.ts).
 */
function LateWhatsAppWidget() {
  const [due, setDue] = useState(false);
  useEffect(() => {
    if (storage.get(storageKeys.whatsappWidgetDismissed) === 'true') return;
    const fetchTimer = setTimeout(() => void loadWidget().catch(() => undefined), widgetShowDelayMs - widgetFetchAheadMs);
    const showTimer = setTimeout(() => setDue(true), widgetShowDelayMs);
    return () => {
      clearTimeout(fetchTimer);
      clearTimeout(showTimer);
    };
  }, []);
  return due ? (
    <Suspense fallback={null}>
      <WhatsAppWidget />
    </Suspense>
  ) : null;
}

/** The frame of every page: skip link, scroll handling, error boundary and the WhatsApp widget. */
export function RootLayout() {
  const { pathname } = useLocation();
  const inApp = appPaths.some((p) => pathname === p || pathname.startsWith(`${p}/`));
  return (
    <>
      <a
        href="#main-content"
        className="sr-only z-[80] rounded-lg bg-brand px-4 py-2 text-sm font-semibold text-brand-fg focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Pular para o conteúdo
      </a>
      <ScrollManager />
      <RouteErrorBoundary resetKey={pathname}>
        <Outlet />
      </RouteErrorBoundary>
      {inApp ? null : <LateWhatsAppWidget />}
    </>
  );
}
