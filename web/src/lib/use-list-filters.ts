import { useState } from 'react';

/**
 * The state of a list screen's filters and page: the panel behind 'Mostrar filtros', the values
 * being typed (`draft`) and the ones applied by 'Aplicar filtros', which go back to the first page.
 */
export function useListFilters<Filters>(empty: Filters) {
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState<Filters>(empty);
  const [applied, setApplied] = useState<Filters>(empty);
  const [page, setPage] = useState(0);
  return {
    open,
    toggle: () => setOpen((v) => !v),
    draft,
    setDraft,
    applied,
    apply: () => {
      setApplied(draft);
      setPage(0);
    },
    page,
    setPage,
  };
}
