import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import axe from 'axe-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorTexts } from '#contracts/errors.ts';
import { toastStore } from '#web/lib/notify.ts';
import { contactFixture } from '#web/testing/contact-fixture.ts';
import { messageFixture } from '#web/testing/message-fixture.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { ForwardDialog } from './forward-dialog.tsx';

/** A loaded machine runs several suites at once: waits get more than the default second. */
const slow = { timeout: 5000 };
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });
const people = ['Ana Souza', 'Bruno Lima', 'Carla Dias'].map((name, i) => contactFixture({ id: `c${i + 2}`, name }));

/** GET /contacts answers those whose name holds the search; POST .../forward answers `forward`. */
function mockApi(forward: () => Response) {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://x');
    if (url.pathname === '/api/messages/m1/forward' && init?.method === 'POST') return forward();
    if (url.pathname === '/api/contacts') {
      const query = JSON.parse(url.searchParams.get('query') ?? '{}');
      const like = String(query.where?.name?.like ?? '')
        .replaceAll('%', '')
        .toLowerCase();
      // Pages count from 0, as the API's do.
      const found = people.filter((p) => p.name.toLowerCase().includes(like)).slice(query.page * query.perPage, (query.page + 1) * query.perPage);
      return json({ data: found, totalCount: found.length });
    }
    return json({ error: 'Not found' }, 404);
  });
}

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  toastStore.set([]);
});

const message = messageFixture({ id: 'm1', contactId: 'c1', text: 'Promoção de hoje' });

describe("'Encaminhar mensagem'", () => {
  it('searches by name, picks contacts and forwards to them', async () => {
    const fetchMock = mockApi(() => json({ data: [] }, 201));
    const onClose = vi.fn();
    renderWithProviders(<ForwardDialog message={message} onClose={onClose} />);
    expect(screen.getByTestId('forward-preview').textContent).toBe('Promoção de hoje');
    fireEvent.click(await screen.findByLabelText(/Ana Souza/, undefined, slow));
    fireEvent.change(screen.getByLabelText('Buscar contato'), { target: { value: 'carla' } });
    await waitFor(() => expect(screen.queryByLabelText(/Bruno Lima/)).toBeNull(), slow);
    fireEvent.click(screen.getByLabelText(/Carla Dias/));
    const picked = screen.getByRole('list', { name: 'Contatos escolhidos' });
    expect(
      within(picked)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Ana Souza', 'Carla Dias']);
    fireEvent.click(screen.getByRole('button', { name: 'Encaminhar (2)' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled(), slow);
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST')!;
    expect(JSON.parse(String(post[1]!.body))).toEqual({ contactId: 'c1', toContactIds: ['c2', 'c4'] });
    expect(toastStore.get()).toEqual([expect.objectContaining({ tone: 'success', title: 'Mensagem encaminhada para 2 contatos' })]);
  });

  it('names each contact that cannot receive it, with the reason in pt-BR, and stays open', async () => {
    mockApi(() =>
      json(
        {
          statusCode: 400,
          error: 'Bad Request',
          message: errorTexts.invalidParams,
          details: [{ path: 'toContactIds.1', message: errorTexts.contactArchived }],
        },
        400,
      ),
    );
    const onClose = vi.fn();
    const { container } = renderWithProviders(<ForwardDialog message={message} onClose={onClose} />);
    fireEvent.click(await screen.findByLabelText(/Ana Souza/, undefined, slow));
    fireEvent.click(screen.getByLabelText(/Bruno Lima/));
    fireEvent.click(screen.getByRole('button', { name: 'Encaminhar (2)' }));
    const alert = await screen.findByText('Nada foi encaminhado', undefined, slow);
    expect(alert.closest('[role="alert"], div')?.textContent).toContain('Bruno Lima: Contato arquivado. Desarquive-o para enviar mensagens.');
    expect(onClose).not.toHaveBeenCalled();
    const results = await axe.run(container.ownerDocument.body, { rules: { 'color-contrast': { enabled: false } } });
    expect(results.violations.map((v) => v.id)).toEqual([]);
  });

  it('offers at most 10: the other boxes are disabled once 10 are chosen', async () => {
    people.push(...Array.from({ length: 9 }, (_, i) => contactFixture({ id: `x${i}`, name: `Extra ${i}` })));
    try {
      mockApi(() => json({ data: [] }, 201));
      renderWithProviders(<ForwardDialog message={message} onClose={() => {}} />);
      await screen.findByLabelText(/Ana Souza/, undefined, slow);
      const boxes = screen.getAllByRole('checkbox') as HTMLInputElement[];
      for (const box of boxes.slice(0, 10)) fireEvent.click(box);
      expect(boxes.slice(10).every((b) => b.disabled)).toBe(true);
      expect(screen.getByText('Você já escolheu 10 contatos, o máximo de uma vez.')).toBeTruthy();
    } finally {
      people.splice(3);
    }
  });
});
