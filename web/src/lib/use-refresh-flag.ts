import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';

/**
 * SPEC: a list refreshes when the navigation state carries a refresh flag (after a modal saved).
 * Refetches once on `path` and clears the flag so a reload does not refetch again.
 */
export function useRefreshFlag(path: string, refetch: () => unknown): void {
  const location = useLocation();
  const navigate = useNavigate();
  const refresh = (location.state as { refresh?: boolean } | null)?.refresh;
  useEffect(() => {
    if (refresh && location.pathname === path) {
      void refetch();
      navigate(path, { replace: true, state: null });
    }
  }, [refresh, location.pathname, path, refetch, navigate]);
}

/** A list's modal route going back to the list: `close` as it was, `saved` with the refresh flag. */
export function useBackToList(path: string) {
  const navigate = useNavigate();
  return { close: () => navigate(path), saved: () => navigate(path, { state: { refresh: true } }) };
}
