import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import type { ChatMessage } from '#web/features/inbox/api/get-messages.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { MessageBubble } from './message-bubble.tsx';
import { messageFixture } from '#web/testing/message-fixture.ts';

function message(patch: Partial<ChatMessage> = {}): ChatMessage {
  return messageFixture({ id: 'm1', text: 'Chegou o pedido?', ack: 2, ...patch }, new Date(Date.UTC(2025, 5, 8, 12, 0, 0)).toISOString());
}

afterEach(cleanup);

function show(m: ChatMessage) {
  const onRetry = vi.fn();
  const onReply = vi.fn();
  renderWithProviders(<MessageBubble message={m} onReply={onReply} onRetry={onRetry} />);
  return { onRetry, onReply };
}

describe('a message bubble', () => {
  it('says why a send of ours waits (a daily cap), while it is still being sent, and nothing once it went', () => {
    const waiting = 'Aguardando: limite diário de envios deste número atingido (proteção contra banimento). O envio continua amanhã.';
    show(message({ isFromMe: true, ack: 0, waiting }));
    expect(screen.getByTestId('send-waiting').textContent).toBe(waiting);
    cleanup();
    show(message({ isFromMe: true, ack: 1, waiting }));
    expect(screen.queryByTestId('send-waiting')).toBeNull();
  });

  it("marks an automation's message as automatic instead of naming a person; a person's is not marked", () => {
    show(message({ isFromMe: true, ack: 1, automated: true, user: null, text: 'Olá! Já vamos te atender.' }));
    expect(screen.getByTestId('automated').textContent).toBe('Automática ·');
    cleanup();
    show(message({ isFromMe: true, ack: 1, user: { id: 'u1', name: 'Ana' } }));
    expect(screen.queryByTestId('automated')).toBeNull();
    expect(screen.getByText('Ana ·')).toBeTruthy();
  });

  it('shows reactions as chips under the message, counted from two, read as one label', () => {
    show(
      message({
        reactions: [
          { emoji: '👍', count: 2, fromMe: true },
          { emoji: '❤️', count: 1, fromMe: false },
        ],
      }),
    );
    const reactions = screen.getByRole('img', { name: 'Reações: 👍 2, ❤️ 1' });
    const chips = screen.getAllByTestId('reaction');
    expect(chips.map((c) => c.textContent)).toEqual(['👍2', '❤️']);
    // Under the bubble, not inside it: a reaction is never a message of its own.
    expect(screen.getByTestId('message').contains(reactions)).toBe(false);
    expect(screen.getAllByTestId('message')).toHaveLength(1);
  });

  it('shows no reactions row without reactions, nor on a deleted message', () => {
    show(message());
    expect(screen.queryByRole('img', { name: /Reações/ })).toBeNull();
    cleanup();
    show(message({ id: 'm2', ack: -1, reactions: [{ emoji: '😂', count: 1, fromMe: false }] }));
    expect(screen.queryByRole('img', { name: /Reações/ })).toBeNull();
  });

  it('a send WhatsApp refused (ack -2) shows the reason and can be tried again', () => {
    const failed = message({ isFromMe: true, ack: -2, error: 'Falha ao enviar a mensagem pelo WhatsApp. Tente de novo.' });
    const { onRetry } = show(failed);
    expect(screen.getByText('Falha ao enviar a mensagem pelo WhatsApp. Tente de novo.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(onRetry).toHaveBeenCalledWith(failed);
  });

  it("a system line is a centred line with its time: no bubble, no ack, no 'Responder'", () => {
    show(message({ kind: 'system', isFromMe: true, ack: 1, text: 'Ana Souza assumiu a conversa', user: { id: 'U1', name: 'Ana Souza' } }));
    const line = screen.getByTestId('system-line');
    expect(line.textContent).toMatch(/^Ana Souza assumiu a conversa · \d\d:\d\d$/);
    expect(line.querySelector('time')!.getAttribute('dateTime')).toBe('2025-06-08T12:00:00.000Z');
    expect(screen.queryByTestId('message')).toBeNull();
    expect(line.querySelector('[data-ack]')).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it("an internal note reads 'Nota interna' with its author first, has no ack ticks and cannot be replied to", () => {
    show(message({ kind: 'note', isFromMe: true, ack: 1, text: 'Cliente pediu desconto', user: { id: 'U1', name: 'Ana Souza' } }));
    const note = screen.getByTestId('message');
    expect(note.getAttribute('data-kind')).toBe('note');
    // The label comes before the text, so a screen reader hears it is a note before what it says.
    expect(note.textContent?.startsWith('Nota interna · Ana Souza')).toBe(true);
    expect(note.className).toContain('bg-note');
    expect(note.className).not.toContain('bg-brand');
    expect(note.querySelector('[data-ack]')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Responder' })).toBeNull();
    cleanup();
    // A customer's message keeps its action; my sent one its ticks.
    const { onReply } = show(message({ id: 'm3' }));
    fireEvent.click(screen.getByRole('button', { name: 'Responder' }));
    expect(onReply).toHaveBeenCalled();
    cleanup();
    show(message({ id: 'm4', isFromMe: true, ack: 2 }));
    expect(screen.getByTestId('message').querySelector('[data-ack="2"]')).toBeTruthy();
  });

  it('a note that failed to save says so and offers to try again', () => {
    const failed = message({ kind: 'note', isFromMe: true, ack: -2, text: 'Ligar amanhã', error: 'Não foi possível enviar a mensagem' });
    const { onRetry } = show(failed);
    fireEvent.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(onRetry).toHaveBeenCalledWith(failed);
  });
});
