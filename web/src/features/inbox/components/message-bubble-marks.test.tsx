import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { messageFixture } from '#web/testing/message-fixture.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { MessageBubble } from './message-bubble.tsx';

afterEach(cleanup);

const ours = messageFixture({ id: 'm1', isFromMe: true, ack: 1, text: 'Olá!', user: { id: 'u1', name: 'Ana Souza' } });

describe("a bubble's 'Assinada' and 'Encaminhada'", () => {
  it("shows 'Assinada' on our signed message, with the text as typed", () => {
    renderWithProviders(<MessageBubble message={{ ...ours, signed: true }} onRetry={() => {}} />);
    expect(screen.getByTestId('signed').textContent).toContain('Assinada');
    expect(screen.getByTestId('message').textContent).toContain('Olá!');
    expect(screen.getByTestId('message').textContent).not.toContain('*Ana Souza:*');
    cleanup();
    renderWithProviders(<MessageBubble message={ours} onRetry={() => {}} />);
    expect(screen.queryByTestId('signed')).toBeNull();
  });

  it("offers 'Encaminhar' on messages and marks forwarded ones; not on notes", () => {
    const onForward = vi.fn();
    renderWithProviders(<MessageBubble message={{ ...ours, forwarded: true }} onForward={onForward} onRetry={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: 'Encaminhar' }));
    expect(onForward).toHaveBeenCalledWith(expect.objectContaining({ id: 'm1' }));
    expect(screen.getByTestId('forwarded').textContent).toContain('Encaminhada');
    cleanup();
    renderWithProviders(<MessageBubble message={{ ...ours, kind: 'note' }} onForward={onForward} onRetry={() => {}} />);
    expect(screen.queryByRole('button', { name: 'Encaminhar' })).toBeNull();
  });
});
