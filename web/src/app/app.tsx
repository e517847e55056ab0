import { lazy, Suspense, useEffect, useLayoutEffect, useState, type ReactNode } from 'react';
import { Toaster } from '#web/components/ui/toaster.tsx';
import { errorModalStore } from '#web/lib/notify.ts';
import { useStore } from '#web/lib/store.ts';
import { AppRouter } from './router.tsx';

// Only the pages that call the API can raise it: loaded the first time it opens, then kept.
const ErrorModal = lazy(() => import('#web/components/error-modal.tsx').then((m) => ({ default: m.ErrorModal })));

function LazyErrorModal() {
  const error = useStore(errorModalStore);
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    if (error) setWanted(true);
  }, [error]);
  if (!wanted && !error) return null;
  return (
    <Suspense fallback={null}>
      <ErrorModal />
    </Suspense>
  );
}

/** The toasts' portal into `document.body`, from the first effect on: not part of a prerendered page. */
function MountedToaster() {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return mounted ? <Toaster /> : null;
}

/**
 * The app, on the browser's router; at build time (web/src/prerender.tsx) on the static router it
 * is given, which then stays out of the browser's bundle.
 */
export function App({ router }: { router?: ReactNode }) {
  // The shell's static skeleton or 'Carregando...' (index.html) gives way to the app's first render,
  // which shows the same skeleton while the screen's code loads (app-skeleton.tsx), before it paints.
  useLayoutEffect(() => {
    document.getElementById('shell-loader')?.remove();
    document.documentElement.removeAttribute('data-shell');
    document.documentElement.removeAttribute('data-sidebar');
  }, []);
  return (
    <>
      {router ?? <AppRouter />}
      <MountedToaster />
      <LazyErrorModal />
    </>
  );
}
