import { lazy, type ComponentType } from 'react';

type PageModule = { default: ComponentType };

/**
 * A route's page as its own chunk, fetched on first visit (or earlier, with `preload`). `data` pages
 * (forms, the signed-in app) also get the query client: its chunk (TanStack Query, the API client,
 * the error reporter) is fetched alongside the page's, in parallel, so the public pages that need
 * none of it never load it.
 */
export function lazyPage(load: () => Promise<PageModule>, options: { data?: boolean } = {}) {
  let loading: Promise<PageModule> | undefined;
  const loadOnce = () => {
    loading ??= options.data ? withQueryScope(load) : load();
    return loading;
  };
  return Object.assign(lazy(loadOnce), { preload: () => void loadOnce() });
}

async function withQueryScope(load: () => Promise<PageModule>): Promise<PageModule> {
  const [page, { QueryScope }] = await Promise.all([load(), import('./query-scope.tsx')]);
  const Page = page.default;
  return {
    default: function WithQueryScope() {
      return (
        <QueryScope>
          <Page />
        </QueryScope>
      );
    },
  };
}
