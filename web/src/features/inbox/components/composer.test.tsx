import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import type { User } from '#contracts/entities.ts';
import type { QuickReply } from '#contracts/quick-replies.ts';
import { sessionStore } from '#web/lib/auth.ts';
import { toastStore } from '#web/lib/notify.ts';
import { quickReplyRenderFailed } from '#web/features/inbox/hooks/use-quick-reply-picker.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { addFiles, Composer, notePlaceholder, notesOnlyTitle, type ComposerProps } from './composer.tsx';

const helena = { id: 'C1', name: 'Helena Prado', data: { phoneNumber: '5511987650001', email: null, phoneCountry: 'BR' } };

/** The composer with its note mode held like the conversation holds it. */
function Harness(props: Pick<ComposerProps, 'onSend' | 'onClearReply' | 'notesOnly'>) {
  const [noteMode, setNoteMode] = useState(false);
  return <Composer contact={helena} replyTo={null} noteMode={noteMode} onNoteModeChange={setNoteMode} {...props} />;
}

/** The harness while the connection is down, with a button that brings it back. */
function Reconnecting({ onSend }: Pick<ComposerProps, 'onSend'>) {
  const [down, setDown] = useState(true);
  return (
    <>
      <button type="button" onClick={() => setDown(false)}>
        reconectar
      </button>
      <Harness onClearReply={() => {}} onSend={onSend} notesOnly={down} />
    </>
  );
}

function setup() {
  const onSend = vi.fn();
  const onClearReply = vi.fn();
  renderWithProviders(<Harness onClearReply={onClearReply} onSend={onSend} />);
  return { onSend, box: screen.getByLabelText('Mensagem') as HTMLTextAreaElement };
}

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  sessionStore.set({ accessToken: null, user: null });
});

function signIn(patch: Partial<User>) {
  sessionStore.set({ accessToken: 'token', user: { id: 'U1', name: 'Ana Souza', isAdmin: false, ...patch } as User });
}

function reply(id: string, shortcut: string, text: string): QuickReply {
  return { id, shortcut, text, createdAt: '2026-11-20T10:00:00.000Z', updatedAt: '2026-11-20T10:00:00.000Z' };
}

/** The API as the picker meets it: the catalogue, and a rendering that fills the variables as the server would. */
function serve(catalogue: QuickReply[], rendered: Record<string, string> = {}) {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = String(input);
    const render = /\/api\/quick-replies\/([^/]+)\/render$/.exec(url);
    if (render) return new Response(JSON.stringify({ text: rendered[render[1]!] ?? '' }), { status: 200 });
    if (url.startsWith('/api/quick-replies')) return new Response(JSON.stringify({ data: catalogue, totalCount: catalogue.length }), { status: 200 });
    return new Response('{}', { status: 404 });
  });
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

describe('the composer in note mode', () => {
  it('switches with the pressed toggle to a note: note placeholder, no attachments nor voice, and sends a note', () => {
    const { onSend, box } = setup();
    const toggle = screen.getByRole('button', { name: 'Nota interna' });
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    // R outside the box is the recording shortcut in message mode (the key is taken: preventDefault).
    vi.spyOn(console, 'warn').mockImplementation(() => {}); // jsdom has no microphone: the attempt is only logged
    expect(fireEvent.keyDown(document.body, { key: 'r' })).toBe(false);
    expect(screen.getByRole('button', { name: 'Gravar áudio (R)' })).toBeTruthy();
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    const noteBox = screen.getByLabelText('Texto da nota interna') as HTMLTextAreaElement;
    expect(noteBox).toBe(box);
    expect(noteBox.placeholder).toBe(notePlaceholder);
    expect(screen.getByTestId('note-mode').textContent).toContain('só a sua equipe vê');
    expect((screen.getByRole('button', { name: 'Anexar arquivos' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Gravar áudio (R)' })).toBeNull();
    const save = screen.getByRole('button', { name: 'Salvar nota' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    // In note mode R is left alone.
    expect(fireEvent.keyDown(document.body, { key: 'r' })).toBe(true);

    fireEvent.change(noteBox, { target: { value: '  Cliente pediu desconto; falar com o financeiro.  ' } });
    fireEvent.keyDown(noteBox, { key: 'Enter' });
    expect(onSend).toHaveBeenCalledWith({ text: 'Cliente pediu desconto; falar com o financeiro.', files: [], note: true });
    expect(noteBox.value).toBe('');

    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    expect(screen.getByLabelText('Mensagem')).toBe(box);
    expect(box.placeholder).toBe('Digite uma mensagem');
  });
});

describe('the composer when nothing can reach the customer', () => {
  it('writes internal notes only: the mode is on and cannot be left, no attachment nor voice, and Enter saves the note', () => {
    const onSend = vi.fn();
    renderWithProviders(<Reconnecting onSend={onSend} />);
    expect(screen.queryByLabelText('Mensagem')).toBeNull();
    const box = screen.getByLabelText('Texto da nota interna') as HTMLTextAreaElement;
    expect(box.placeholder).toBe(notePlaceholder);
    expect(screen.getByTestId('note-mode').textContent).toContain('só a sua equipe vê');
    const toggle = screen.getByRole('button', { name: 'Nota interna' }) as HTMLButtonElement;
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    expect(toggle.disabled).toBe(true);
    expect(toggle.title).toBe(notesOnlyTitle);
    expect((screen.getByRole('button', { name: 'Anexar arquivos' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Gravar áudio (R)' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Enviar' })).toBeNull();
    // R does not start a recording that could not be sent.
    expect(fireEvent.keyDown(document.body, { key: 'r' })).toBe(true);

    fireEvent.change(box, { target: { value: 'Conexão caiu; retornar amanhã cedo.' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onSend).toHaveBeenCalledWith({ text: 'Conexão caiu; retornar amanhã cedo.', files: [], note: true });
    expect(box.value).toBe('');

    // Once the customer can be written to again, the composer is back to messages.
    fireEvent.click(screen.getByRole('button', { name: 'reconectar' }));
    expect(screen.getByLabelText('Mensagem')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Nota interna' }).getAttribute('aria-pressed')).toBe('false');
  });
});

describe('quick replies in the composer', () => {
  const catalogue = [
    reply('q1', 'boleto', 'Olá, {{primeiro_nome}}! Segue o boleto. Aqui é {{atendente}}.'),
    reply('q2', 'boas-vindas', 'Seja bem-vindo, {{nome}}!'),
    reply('q3', 'horario', 'Abrimos às 9h; boleto só até as 17h.'),
  ];

  it("'/bo' lists the matches (shortcut first, then text), arrows move, Enter picks and the server's filling stays to edit", async () => {
    const fetchMock = serve(catalogue, { q1: 'Olá, Helena! Segue o boleto. Aqui é Ana Souza.' });
    const { onSend, box } = setup();
    fireEvent.change(box, { target: { value: '/bo' } });
    const list = await screen.findByRole('listbox', { name: 'Respostas rápidas' });
    const options = screen.getAllByRole('option');
    expect(options.map((o) => o.textContent?.split('!')[0])).toEqual([
      '/boas-vindasSeja bem-vindo, Helena Prado',
      '/boletoOlá, Helena',
      '/horarioAbrimos às 9h; boleto só até as 17h.',
    ]);
    expect(box.getAttribute('aria-controls')).toBe(list.id);
    expect(box.getAttribute('aria-activedescendant')).toBe(options[0]!.id);
    expect(options[0]!.getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('status').textContent).toBe('3 respostas rápidas');

    fireEvent.change(box, { target: { value: '/bol' } });
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(2));
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    fireEvent.keyDown(box, { key: 'ArrowUp' });
    fireEvent.keyDown(box, { key: 'ArrowUp' });
    const [boleto] = screen.getAllByRole('option');
    expect(boleto!.textContent).toContain('/boleto');
    expect(box.getAttribute('aria-activedescendant')).toBe(boleto!.id);
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onSend).not.toHaveBeenCalled();
    // At once the browser's filling (no agent signed in here), then the server's answer.
    expect(box.value).toBe('Olá, Helena! Segue o boleto. Aqui é .');
    await waitFor(() => expect(box.value).toBe('Olá, Helena! Segue o boleto. Aqui é Ana Souza.'));
    expect(screen.queryByRole('listbox')).toBeNull();
    const renderCall = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/render'))!;
    expect(String(renderCall[0])).toBe('/api/quick-replies/q1/render');
    expect(JSON.parse(String(renderCall[1]!.body))).toEqual({ contactId: 'C1' });

    fireEvent.change(box, { target: { value: `${box.value} Vence amanhã.` } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onSend).toHaveBeenCalledWith({ text: 'Olá, Helena! Segue o boleto. Aqui é Ana Souza. Vence amanhã.', files: [] });
  });

  it('Tab picks too, filled with the signed-in agent; Esc closes without sending nor cancelling a reply', async () => {
    signIn({ name: 'Bruno Lima' });
    serve(catalogue, { q2: 'Seja bem-vindo, Helena Prado!' });
    const onClearReply = vi.fn();
    const onSend = vi.fn();
    renderWithProviders(<Harness onClearReply={onClearReply} onSend={onSend} />);
    const box = screen.getByLabelText('Mensagem') as HTMLTextAreaElement;
    fireEvent.change(box, { target: { value: '/' } });
    await screen.findByRole('listbox');
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(screen.queryByTestId('quick-reply-picker')).toBeNull();
    expect(box.getAttribute('aria-activedescendant')).toBeNull();
    fireEvent.change(box, { target: { value: '/boa' } });
    await screen.findByRole('listbox');
    fireEvent.keyDown(box, { key: 'Tab' });
    expect(box.value).toBe('Seja bem-vindo, Helena Prado!');
    expect(onSend).not.toHaveBeenCalled();
  });

  it("keeps the agent's text and says so in pt-BR when the server's filling fails", async () => {
    signIn({ name: 'Bruno Lima' });
    toastStore.set([]);
    let answerRender: (response: Response) => void = () => {};
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const url = String(input);
      if (url.endsWith('/render')) return new Promise<Response>((resolve) => (answerRender = resolve));
      if (url.startsWith('/api/quick-replies')) return new Response(JSON.stringify({ data: catalogue, totalCount: 3 }), { status: 200 });
      return new Response('{}', { status: 404 });
    });
    const { onSend, box } = setup();
    fireEvent.change(box, { target: { value: '/bol' } });
    await screen.findByRole('listbox');
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(box.value).toBe('Olá, Helena! Segue o boleto. Aqui é Bruno Lima.');
    // The agent goes on typing before the server answers, and the server fails.
    fireEvent.change(box, { target: { value: `${box.value} Vence amanhã.` } });
    await waitFor(() => expect(fetch).toHaveBeenCalledWith('/api/quick-replies/q1/render', expect.anything()));
    answerRender(
      new Response(JSON.stringify({ statusCode: 500, error: 'Internal Server Error', message: 'Internal server error' }), {
        status: 500,
        headers: { 'content-type': 'application/json' },
      }),
    );
    await waitFor(() => expect(toastStore.get()).toHaveLength(1));
    expect(toastStore.get()[0]).toMatchObject({ tone: 'error', ...quickReplyRenderFailed });
    expect(box.value).toBe('Olá, Helena! Segue o boleto. Aqui é Bruno Lima. Vence amanhã.');
    expect(onSend).not.toHaveBeenCalled();
  });

  it('keeps the filled text untouched when the server cannot be reached, with the same error', async () => {
    toastStore.set([]);
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const url = String(input);
      if (url.endsWith('/render')) throw new TypeError('Failed to fetch');
      if (url.startsWith('/api/quick-replies')) return new Response(JSON.stringify({ data: catalogue, totalCount: 3 }), { status: 200 });
      return new Response('{}', { status: 404 });
    });
    const { box } = setup();
    fireEvent.change(box, { target: { value: '/horario' } });
    await screen.findByRole('listbox');
    fireEvent.keyDown(box, { key: 'Tab' });
    await waitFor(() => expect(toastStore.get().map((t) => t.title)).toEqual([quickReplyRenderFailed.title]));
    expect(box.value).toBe('Abrimos às 9h; boleto só até as 17h.');
  });

  it("says when no shortcut matches, and Enter then neither sends the '/atalho' nor picks", async () => {
    serve(catalogue);
    const { onSend, box } = setup();
    fireEvent.change(box, { target: { value: '/pix' } });
    expect(await screen.findByText('Nenhuma resposta rápida com esse atalho.')).toBeTruthy();
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(box.getAttribute('aria-controls')).toBeNull();
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onSend).not.toHaveBeenCalled();
    expect(box.value).toBe('/pix');
    // A space ends the shortcut: the picker closes and the text is a plain message again.
    fireEvent.change(box, { target: { value: '/pix ou boleto?' } });
    expect(screen.queryByTestId('quick-reply-picker')).toBeNull();
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onSend).toHaveBeenCalledWith({ text: '/pix ou boleto?', files: [] });
  });

  it('an account with none: admins get a link to create them, members a hint', async () => {
    signIn({ isAdmin: true });
    serve([]);
    const first = setup();
    fireEvent.change(first.box, { target: { value: '/' } });
    expect(await screen.findByText('Nenhuma resposta rápida cadastrada ainda.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Criar respostas rápidas' }).getAttribute('href')).toBe('/quick-replies');
    cleanup();
    signIn({ isAdmin: false });
    const second = setup();
    fireEvent.change(second.box, { target: { value: '/' } });
    expect(await screen.findByText('Peça a um administrador para criar respostas rápidas.')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Criar respostas rápidas' })).toBeNull();
  });
});
