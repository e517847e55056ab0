import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { Accordion } from './accordion.tsx';
import { Dialog } from './dialog.tsx';

afterEach(cleanup);

function Harness() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Abrir
      </button>
      <Dialog open={open} onClose={() => setOpen(false)} title="Título" footer={<button type="button">Último</button>}>
        <input aria-label="Primeiro" />
      </Dialog>
    </>
  );
}

describe('the dialog', () => {
  it('focuses inside, keeps Tab inside, closes on Esc and gives the focus back', () => {
    render(<Harness />);
    const opener = screen.getByRole('button', { name: 'Abrir' });
    opener.focus();
    fireEvent.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Título' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Fechar' }));
    screen.getByRole('button', { name: 'Último' }).focus();
    fireEvent.keyDown(document, { key: 'Tab' });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Fechar' }));
    fireEvent.keyDown(document, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Último' }));
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });
});

describe('the accordion', () => {
  it('keeps one panel open at a time', () => {
    render(
      <Accordion
        items={[
          { id: 'a', title: 'Pergunta A', content: 'Resposta A' },
          { id: 'b', title: 'Pergunta B', content: 'Resposta B' },
        ]}
      />,
    );
    const [a, b] = screen.getAllByRole('button');
    fireEvent.click(a!);
    expect(a!.getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(b!);
    expect(a!.getAttribute('aria-expanded')).toBe('false');
    expect(b!.getAttribute('aria-expanded')).toBe('true');
    expect(document.getElementById(a!.getAttribute('aria-controls')!)!.hasAttribute('hidden')).toBe(true);
  });
});
