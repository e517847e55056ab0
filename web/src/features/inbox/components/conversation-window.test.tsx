/**
 * The conversation's composer and the WhatsApp (API oficial) 24-hour window: open, the usual
 * composer (a line saying until when in the last two hours only); closed, a notice saying since when
 * the customer has not written and a composer of internal notes only; the change at the closing
 * moment (a timer, the clock moved on) and back when the customer writes (a new `lastInboundAt`).
 */
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import axe from 'axe-core';
import type { Contact } from '#contracts/contacts.ts';
import type { User } from '#contracts/entities.ts';
import type { Service } from '#contracts/services.ts';
import { sessionStore } from '#web/lib/auth.ts';
import { contactFixture } from '#web/testing/contact-fixture.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { Conversation } from './conversation.tsx';
import { notePlaceholder } from './composer.tsx';

const HOUR = 3_600_000;
const wrote = new Date(2026, 10, 26, 15, 0, 0); // 26/11/2026 15:00, local time
const closes = wrote.getTime() + 24 * HOUR;

const service = (type: Service['type'], status: Service['status'] = 'connected'): Service => ({
  id: 's1',
  name: 'Oficial',
  type,
  status,
  connected: status === 'connected',
  data: { qrCode: null, pairingCode: null },
  internalData: {},
  statusReason: null,
  defaultDepartmentId: null,
  readReceipts: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

const contact = (type: Service['type'], lastInboundAt: string | null): Contact =>
  contactFixture({ id: 'C1', name: 'Rita Moraes', service: { id: 's1', name: 'Oficial', type }, lastInboundAt });

/** The conversation as the inbox holds it: the contact replaced when its realtime event comes (the button). */
function Inbox({ type, first, next, status = 'connected' }: { type: Service['type']; first: string | null; next: string | null; status?: Service['status'] }) {
  const [lastInboundAt, setLastInboundAt] = useState(first);
  return (
    <>
      <button type="button" onClick={() => setLastInboundAt(next)}>
        evento do contato
      </button>
      <Conversation contact={contact(type, lastInboundAt)} service={service(type, status)} />
    </>
  );
}

let posted: { url: string; body: unknown }[];

beforeEach(() => {
  posted = [];
  sessionStore.set({ accessToken: 'token', user: { id: 'U1', name: 'Ana Souza', isAdmin: true } as User });
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = String(input);
    const empty = { data: [], totalCount: 0, nextCursor: null };
    if (url.endsWith('/batch')) {
      const { requests } = JSON.parse(String(init?.body)) as { requests: unknown[] };
      return new Response(JSON.stringify({ responses: requests.map(() => ({ status: 200, body: empty })) }), { status: 200 });
    }
    if (init?.method === 'POST') {
      const body = JSON.parse(String(init.body ?? '{}'));
      posted.push({ url, body });
      if (url.endsWith('/messages/notes')) {
        return new Response(
          JSON.stringify({
            id: 'N1',
            contactId: 'C1',
            serviceId: 's1',
            text: body.text,
            kind: 'note',
            type: 'text',
            isFromMe: true,
            ack: 1,
            timestamp: new Date().toISOString(),
          }),
          { status: 201 },
        );
      }
    }
    return new Response(JSON.stringify(empty), { status: 200 });
  });
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
  sessionStore.set({ accessToken: null, user: null });
});

/** The clock at `ms`, running on from there. */
const clockAt = (ms: number) => {
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  vi.setSystemTime(ms);
};

async function noSeriousAxeViolations(container: HTMLElement) {
  const result = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
  expect(result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
}

describe('the conversation on WhatsApp (API oficial)', () => {
  it('offers the usual composer while the window is open, saying nothing until its last two hours', async () => {
    clockAt(wrote.getTime() + 20 * HOUR);
    renderWithProviders(<Conversation contact={contact('whatsapp_cloud', wrote.toISOString())} service={service('whatsapp_cloud')} />);
    expect(await screen.findByPlaceholderText('Digite uma mensagem')).toBeTruthy();
    expect(screen.queryByText(/Janela aberta/)).toBeNull();
    expect(screen.queryByText('Janela de 24 horas fechada')).toBeNull();
    expect(screen.getByRole('button', { name: 'Nota interna' })).toHaveProperty('disabled', false);
  });

  it('says until when it is open in its last two hours, then closes at the moment it should (a timer, no new props)', async () => {
    clockAt(closes - 300);
    const { container } = renderWithProviders(<Conversation contact={contact('whatsapp_cloud', wrote.toISOString())} service={service('whatsapp_cloud')} />);
    expect(await screen.findByText(/^Janela aberta até 15:00/)).toBeTruthy();
    expect(screen.getByPlaceholderText('Digite uma mensagem')).toBeTruthy();
    await noSeriousAxeViolations(container);

    await screen.findByText('Janela de 24 horas fechada', undefined, { timeout: 2000 });
    expect(screen.getByRole('status').textContent).toContain(
      'A janela de 24 horas do WhatsApp fechou: o cliente não escreve desde 26/11/2026 15:00. Só modelos de mensagem aprovados podem ser enviados até ele escrever de novo.',
    );
    expect(screen.queryByText(/Janela aberta/)).toBeNull();
    expect(screen.getByPlaceholderText(notePlaceholder)).toBeTruthy();
  });

  it('moves to the closing line at two hours before, by its own timer', async () => {
    clockAt(closes - 2 * HOUR - 300);
    renderWithProviders(<Conversation contact={contact('whatsapp_cloud', wrote.toISOString())} service={service('whatsapp_cloud')} />);
    await screen.findByPlaceholderText('Digite uma mensagem');
    expect(screen.queryByText(/Janela aberta/)).toBeNull();
    expect(await screen.findByText(/^Janela aberta até 15:00/, undefined, { timeout: 2000 })).toBeTruthy();
  });

  it('closed: a notice, no free text, internal notes still saved; the customer writing opens it again', async () => {
    clockAt(closes + 1000);
    const justNow = new Date(closes + 60_000).toISOString();
    const view = renderWithProviders(<Inbox type="whatsapp_cloud" first={wrote.toISOString()} next={justNow} />);
    expect(await screen.findByText('Janela de 24 horas fechada')).toBeTruthy();
    expect(screen.queryByPlaceholderText('Digite uma mensagem')).toBeNull();
    expect(screen.getByRole('button', { name: 'Nota interna' })).toHaveProperty('disabled', true);
    expect(screen.queryByRole('button', { name: 'Anexar arquivos' })).toHaveProperty('disabled', true);
    await noSeriousAxeViolations(view.container);

    const box = screen.getByLabelText('Texto da nota interna');
    fireEvent.change(box, { target: { value: 'Cliente pediu retorno amanhã' } });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar nota' }));
    await waitFor(() => expect(posted.some((p) => p.url.endsWith('/messages/notes'))).toBe(true));
    expect(posted.some((p) => p.url.endsWith('/messages/send'))).toBe(false);

    // The contact's realtime event brings a new last inbound time: the usual composer is back.
    fireEvent.click(screen.getByRole('button', { name: 'evento do contato' }));
    expect(await screen.findByPlaceholderText('Digite uma mensagem')).toBeTruthy();
    expect(screen.queryByText('Janela de 24 horas fechada')).toBeNull();
  });

  it('closed for a customer who never wrote on the number', async () => {
    clockAt(closes);
    renderWithProviders(<Conversation contact={contact('whatsapp_cloud', null)} service={service('whatsapp_cloud')} />);
    expect(await screen.findByText(/O cliente ainda não escreveu para este número/)).toBeTruthy();
    expect(screen.getByPlaceholderText(notePlaceholder)).toBeTruthy();
  });

  it('a disconnected connection says so first, whatever the window', async () => {
    clockAt(closes + 1000);
    renderWithProviders(<Conversation contact={contact('whatsapp_cloud', wrote.toISOString())} service={service('whatsapp_cloud', 'disconnected')} />);
    expect(await screen.findByText('Conexão desconectada')).toBeTruthy();
    expect(screen.queryByText('Janela de 24 horas fechada')).toBeNull();
  });
});

describe('QR WhatsApp and Telegram have no window', () => {
  for (const type of ['whatsapp', 'telegram'] as const) {
    it(`${type}: the usual composer days after the last inbound message, or with none`, async () => {
      clockAt(closes + 72 * HOUR);
      renderWithProviders(<Inbox type={type} first={wrote.toISOString()} next={null} />);
      expect(await screen.findByPlaceholderText('Digite uma mensagem')).toBeTruthy();
      fireEvent.click(screen.getByRole('button', { name: 'evento do contato' }));
      expect(screen.getByPlaceholderText('Digite uma mensagem')).toBeTruthy();
      expect(screen.queryByText(/Janela/)).toBeNull();
    });
  }
});
