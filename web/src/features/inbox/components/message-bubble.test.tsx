import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import type { ChatMessage } from '#web/features/inbox/api/get-messages.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { MessageBubble } from './message-bubble.tsx';

function message(patch: Partial<ChatMessage> = {}): ChatMessage {
  const at = new Date(Date.UTC(2025, 5, 8, 12, 0, 0)).toISOString();
  return {
    id: 'm1',
    contactId: 'c1',
    serviceId: 's1',
    text: 'Chegou o pedido?',
    type: 'text',
    kind: 'message',
    timestamp: at,
    isFromMe: false,
    ack: 2,
    error: null,
    file: null,
    fileId: null,
    thumbnail: null,
    quotedMessage: null,
    replyMessageId: null,
    user: null,
    groupContact: null,
    reactions: [],
    createdAt: at,
    updatedAt: at,
    ...patch,
  };
}

afterEach(cleanup);

function show(m: ChatMessage) {
  const onRetry = vi.fn();
  renderWithProviders(<MessageBubble message={m} onReply={vi.fn()} onRetry={onRetry} />);
  return { onRetry };
}

describe('a message bubble', () => {
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
});
