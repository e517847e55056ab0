import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import axe from 'axe-core';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ContactImportSummary } from '#contracts/contact-imports.ts';
import { api } from '#web/lib/api-client.ts';
import { formatDateTime } from '#web/lib/format.ts';
import { ContactImportHistory } from './contact-import-history.tsx';

/** A loaded machine runs several suites at once: waits get more than the default second. */
const slow = { timeout: 5000 };

const row = (fields: Partial<ContactImportSummary> & Pick<ContactImportSummary, 'id' | 'fileName' | 'status'>): ContactImportSummary => ({
  size: 1000,
  requestedBy: { id: 'u1', name: 'Paula Reis' },
  bytesRead: 0,
  rows: 0,
  accepted: 0,
  skipped: 0,
  rejected: 0,
  problemsUrl: null,
  createdAt: '2026-11-27T14:05:00.000Z',
  finishedAt: null,
  ...fields,
});

/** The `query` a GET /contact-imports call sent, parsed. */
const queryOf = (path: string) => JSON.parse(new URL(path, 'http://x').searchParams.get('query')!) as Record<string, unknown>;

function show(currentId: string | null = null) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/contacts/import']}>
        <ContactImportHistory currentId={currentId} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe("'Importações recentes'", () => {
  it('says there is none yet, and asks only for checks and imports, newest first', async () => {
    const get = vi.spyOn(api, 'get').mockResolvedValue({ data: [], totalCount: 0 });
    show();
    expect(await screen.findByText(/Nenhuma importação ainda/, undefined, slow)).toBeTruthy();
    expect(get).toHaveBeenCalledTimes(1);
    const [path] = get.mock.calls[0]!;
    expect(path.startsWith('/contact-imports?')).toBe(true);
    expect(queryOf(path)).toEqual({ where: { status: { ne: 'waiting' } }, page: 0, perPage: 5 });
  });

  it('lists each import with who, when, a badge, progress or counts, the rows left out and a way back to it; polls while one runs', async () => {
    const running = row({ id: 'I3', fileName: 'maio.csv', status: 'importing', bytesRead: 250, rows: 120 });
    const checked = row({ id: 'I2', fileName: 'abril.csv', status: 'checked', accepted: 40, skipped: 2, rejected: 3, problemsUrl: 'https://bucket/abril.csv' });
    const done = row({ id: 'I1', fileName: 'março.csv', status: 'done', accepted: 10, requestedBy: null, finishedAt: '2026-11-20T10:00:00.000Z' });
    const answers = [
      { data: [running, checked, done], totalCount: 3 },
      {
        data: [{ ...running, status: 'done', bytesRead: 1000, rows: 500, accepted: 500, finishedAt: '2026-11-27T14:10:00.000Z' }, checked, done],
        totalCount: 3,
      },
    ];
    const get = vi.spyOn(api, 'get').mockImplementation(async () => answers[Math.min(get.mock.calls.length - 1, 1)]);
    const { container } = show('I2');
    const rows = await screen.findAllByTestId('import-history-row', undefined, slow);
    expect(rows).toHaveLength(3);

    const [first, second, third] = rows as [HTMLElement, HTMLElement, HTMLElement];
    expect(first.textContent).toContain('maio.csv');
    expect(first.textContent).toContain(`Paula Reis · ${formatDateTime('2026-11-27T14:05:00.000Z')}`);
    expect(within(first).getByText('Importando')).toBeTruthy();
    expect(within(first).getByRole('progressbar', { name: 'Progresso de maio.csv' }).getAttribute('aria-valuenow')).toBe('25');
    expect(first.textContent).toContain('25% · 120 linhas lidas');
    expect(within(first).getByRole('link', { name: 'Acompanhar maio.csv' }).getAttribute('href')).toBe('/contacts/import?id=I3');

    // The import the screen shows: no link to itself, said instead.
    expect(second.getAttribute('aria-current')).toBe('true');
    expect(within(second).getByText('Verificado, não importado')).toBeTruthy();
    expect(second.textContent).toContain('40 serão importados · 2 já existiam · 3 com problema');
    expect(within(second).queryByRole('link', { name: /Continuar/ })).toBeNull();
    expect(within(second).getByText('Aberta nesta tela')).toBeTruthy();
    expect(within(second).getByRole('link', { name: 'Baixar linhas não importadas (CSV) de abril.csv' }).getAttribute('href')).toBe('https://bucket/abril.csv');

    // Done, nothing left out, its user gone: no name, no download, no reopening.
    expect(within(third).getByText('Importado')).toBeTruthy();
    expect(third.textContent).toContain('10 importados · 0 já existiam · 0 com problema');
    expect(third.textContent).not.toContain('Paula Reis');
    expect(within(third).queryAllByRole('link')).toEqual([]);

    const result = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
    expect(result.violations.map((v) => v.id)).toEqual([]);

    // The running one is read again until it ends; then the polling stops with nothing running.
    await waitFor(() => expect(within(screen.getAllByTestId('import-history-row')[0]!).getByText('Importado')).toBeTruthy(), slow);
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.getAllByTestId('import-history-row')[0]!.textContent).toContain('500 importados');
  });

  it('pages five at a time', async () => {
    const rows = Array.from({ length: 7 }, (_, i) => row({ id: `I${7 - i}`, fileName: `lista-${7 - i}.csv`, status: 'done' }));
    const get = vi.spyOn(api, 'get').mockImplementation(async (path: string) => {
      const page = queryOf(path).page as number;
      return { data: rows.slice(page * 5, page * 5 + 5), totalCount: rows.length };
    });
    show();
    expect(await screen.findAllByTestId('import-history-row', undefined, slow)).toHaveLength(5);
    fireEvent.click(screen.getByRole('button', { name: 'Página 2' }));
    await waitFor(() => expect(screen.getAllByTestId('import-history-row')).toHaveLength(2), slow);
    expect(screen.getAllByTestId('import-history-row')[0]!.textContent).toContain('lista-2.csv');
    expect(queryOf(get.mock.calls.at(-1)![0]).page).toBe(1);
  });
});
