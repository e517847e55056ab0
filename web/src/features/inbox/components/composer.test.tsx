import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { renderWithProviders } from '#web/testing/render.tsx';
import { addFiles, Composer } from './composer.tsx';

function setup() {
  const onSend = vi.fn();
  const onClearReply = vi.fn();
  renderWithProviders(<Composer replyTo={null} onClearReply={onClearReply} onSend={onSend} />);
  return { onSend, box: screen.getByLabelText('Mensagem') as HTMLTextAreaElement };
}

describe('the composer', () => {
  it('sends with Enter and keeps Shift+Enter for a new line', () => {
    const { onSend, box } = setup();
    fireEvent.change(box, { target: { value: 'Olá' } });
    fireEvent.keyDown(box, { key: 'Enter', shiftKey: true });
    expect(onSend).not.toHaveBeenCalled();
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onSend).toHaveBeenCalledWith({ text: 'Olá', files: [] });
    expect(box.value).toBe('');
  });

  it('ignores blank text', () => {
    const { onSend, box } = setup();
    fireEvent.change(box, { target: { value: '   \n ' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onSend).not.toHaveBeenCalled();
  });

  it('opens the emoji picker with Ctrl+E and the shortcuts with Ctrl+K', () => {
    const { box } = setup();
    fireEvent.keyDown(box, { key: 'e', ctrlKey: true });
    expect(screen.getByRole('group', { name: 'Emojis' })).toBeTruthy();
    fireEvent.keyDown(box, { key: 'k', metaKey: true });
    expect(screen.getByRole('dialog', { name: 'Atalhos de teclado' })).toBeTruthy();
  });

  it('attaches several files, dropping repeats by name, modified time and size, and refusing other types', () => {
    const a = new File(['abc'], 'foto.png', { type: 'image/png', lastModified: 1 });
    const again = new File(['xyz'], 'foto.png', { type: 'image/png', lastModified: 1 });
    const other = new File(['abcd'], 'foto.png', { type: 'image/png', lastModified: 2 });
    const sheet = new File(['1'], 'tabela.xlsx', { type: '', lastModified: 1 });
    const exe = new File(['1'], 'virus.exe', { type: 'application/x-msdownload', lastModified: 1 });
    const { files, rejected } = addFiles([], [a, again, other, sheet, exe]);
    expect(files.map((f) => [f.file.name, f.mimetype])).toEqual([
      ['foto.png', 'image/png'],
      ['foto.png', 'image/png'],
      ['tabela.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    ]);
    expect(rejected).toEqual(['virus.exe: Tipo de arquivo não permitido']);
  });
});
