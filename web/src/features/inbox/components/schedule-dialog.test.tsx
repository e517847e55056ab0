import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toastStore } from '#web/lib/notify.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { ScheduleDialog } from './schedule-dialog.tsx';

const slow = { timeout: 5000 };
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  toastStore.set([]);
});

describe("'Agendar mensagem'", () => {
  it("says in pt-BR what is wrong: an empty text on its field before any call, the server's 'already passed' on the time", async () => {
    const fetchMock = vi.spyOn(globalThis, 'fetch').mockImplementation(async () =>
      json(
        {
          statusCode: 400,
          error: 'Bad Request',
          message: 'Invalid params',
          details: [{ path: 'time', message: 'Escolha uma data e um horário que ainda não passaram' }],
        },
        400,
      ),
    );
    const onClose = vi.fn();
    renderWithProviders(<ScheduleDialog contact={{ id: 'c1', serviceId: 's1' }} onClose={onClose} />);
    fireEvent.click(screen.getByRole('button', { name: 'Agendar' }));
    expect(await screen.findByText('A mensagem está vazia', undefined, slow)).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();

    fireEvent.change(screen.getByLabelText('Mensagem'), { target: { value: 'Seu boleto vence amanhã' } });
    fireEvent.change(screen.getByLabelText('Repetição'), { target: { value: 'monthly' } });
    expect(screen.getByText(/vai no último dia do mês/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Agendar' }));
    expect(await screen.findByText('Escolha uma data e um horário que ainda não passaram', undefined, slow)).toBeTruthy();
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(String(url)).toContain('/api/scheduled-messages');
    expect(JSON.parse(String(init?.body))).toMatchObject({ contactId: 'c1', text: 'Seu boleto vence amanhã', repeat: 'monthly', time: '09:00' });
    await waitFor(() => expect(onClose).not.toHaveBeenCalled());
  });
});
