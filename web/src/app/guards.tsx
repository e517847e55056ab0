import { Navigate, Outlet, useLocation } from 'react-router';
import { useSession } from '#web/lib/auth.ts';

/** Guest-only routes (docs/product.md#screens): signed-in users go to /inbox (or where they were headed). */
export function GuestOnly() {
  const { accessToken } = useSession();
  const location = useLocation();
  if (accessToken) {
    const from = (location.state as { from?: string } | null)?.from;
    return <Navigate to={from?.startsWith('/') ? from : '/inbox'} replace />;
  }
  return <Outlet />;
}

/** Guarded routes: unauthenticated visitors go to /login, remembering where they were going. */
export function RequireAuth() {
  const { accessToken } = useSession();
  const location = useLocation();
  if (!accessToken) {
    return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />;
  }
  return <Outlet />;
}

/** The app proper needs an account: a user without one goes to /accounts to create it. */
export function RequireAccount() {
  const { user } = useSession();
  if (!user?.accountId) return <Navigate to="/accounts" replace />;
  return <Outlet />;
}
