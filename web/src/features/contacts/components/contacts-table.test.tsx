import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { User } from '#contracts/entities.ts';
import type { Tag } from '#contracts/tags.ts';
import { api } from '#web/lib/api-client.ts';
import { sessionStore } from '#web/lib/auth.ts';
import * as format from '#web/lib/format.ts';
import { contactFixture } from '#web/testing/contact-fixture.ts';
import { ContactsTable } from './contacts-table.tsx';

/** A loaded machine runs several suites at once: waits get more than the default second. */
const slow = { timeout: 5000 };
const admin = { id: 'u0', name: 'Carla Dona', isAdmin: true } as User;
const palette: Tag[] = [{ id: 'T1', name: 'VIP', color: '#db2777' } as Tag];
const contacts = Array.from({ length: 10 }, (_, i) =>
  contactFixture({
    id: `C${i}`,
    name: `Cliente ${i + 1}`,
    data: { email: `cliente${i + 1}@exemplo.com.br`, phoneNumber: `551198000000${i}`, phoneCountry: 'BR' },
    tags: i === 2 ? ['T1'] : [],
  }),
);

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('the contacts table', () => {
  it('re-renders only the rows that change: not for the tag palette, a dialog or a refetch answering the same contacts', async () => {
    sessionStore.set({ accessToken: 'token', user: admin });
    let answerTags: (value: unknown) => void = () => undefined;
    const tagsAnswered = new Promise((resolve) => {
      answerTags = resolve;
    });
    const get = vi.spyOn(api, 'get').mockImplementation(async (path: string) => {
      if (path.startsWith('/tags')) return tagsAnswered;
      // A new copy every time, as the network gives: only structural sharing keeps the objects.
      if (path.startsWith('/contacts')) return structuredClone({ data: contacts, totalCount: 40 });
      throw new Error(`unexpected GET ${path}`);
    });
    // Each row without a photo draws its initials once per render: a render counter per row, by name.
    const rendered = vi.spyOn(format, 'initials');
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={['/contacts']}>
          <ContactsTable />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    expect(await screen.findAllByTestId('contact-row', undefined, slow)).toHaveLength(10);
    expect(rendered.mock.calls.map(([name]) => name)).toEqual(contacts.map((c) => c.name));

    // The palette arrives: only the row carrying a tag shows a chip, and only it re-renders.
    rendered.mockClear();
    await act(async () => {
      answerTags({ data: palette, totalCount: 1 });
      await tagsAnswered;
    });
    expect(await screen.findByTitle('VIP')).toBeTruthy();
    expect(rendered.mock.calls.map(([name]) => name)).toEqual(['Cliente 3']);

    // Opening a row's tags dialog re-renders the table, not its rows.
    rendered.mockClear();
    fireEvent.click(screen.getByRole('button', { name: 'Etiquetas de Cliente 5' }));
    expect(await screen.findByRole('dialog', { name: 'Etiquetas de Cliente 5' })).toBeTruthy();
    expect(rendered).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Cancelar' }));

    // 'Atualizar' refetches; the same contacts come back as new objects and no row re-renders.
    const asked = get.mock.calls.length;
    fireEvent.click(screen.getByRole('button', { name: 'Atualizar' }));
    await waitFor(() => expect(get.mock.calls.length).toBeGreaterThan(asked), slow);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Atualizar' }).hasAttribute('disabled')).toBe(false), slow);
    expect(rendered).not.toHaveBeenCalled();
  });
});
