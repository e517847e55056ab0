import { useCallback, useEffect, useRef, useState, type ChangeEvent, type KeyboardEvent } from 'react';
import { CalendarClock, FileText, Keyboard, Mic, NotebookPen, Paperclip, Pause, Play, Send, Smile, Trash2, X } from 'lucide-react';
import { fileTooLargeText, fileTypeNotAllowedText, uploadAccept, uploadKindOf } from '#contracts/files.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog } from '#web/components/ui/dialog.tsx';
import { cn } from '#web/lib/cn.ts';
import { formatBytes, formatDuration } from '#web/lib/format.ts';
import { showToast } from '#web/lib/notify.ts';
import type { ChatMessage } from '#web/features/inbox/api/get-messages.ts';
import { EmojiPicker } from './emoji-picker.tsx';
import { summaryText } from './message-bubble.tsx';
import { QuickReplyPicker } from './quick-reply-picker.tsx';
import { useQuickReplyPicker, type PickerContact } from '#web/features/inbox/hooks/use-quick-reply-picker.ts';
import { useVoiceRecorder } from '#web/features/inbox/hooks/use-voice-recorder.ts';

export const maxComposerHeight = 120;

export interface PendingFile {
  key: string;
  file: File;
  mimetype: string;
  caption: string;
}

const extensionTypes: Record<string, string> = {
  pdf: 'application/pdf',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** The content type a file is uploaded with (some systems leave Office files without one). */
export function mimeOf(file: File): string {
  if (file.type) return file.type.toLowerCase();
  return extensionTypes[file.name.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream';
}

/** Files are the same when name, modified time and size match (docs/product.md#screens). */
export const fileKey = (file: File) => `${file.name}|${file.lastModified}|${file.size}`;

/** Adds picked files to the list: duplicates dropped, types and sizes checked. */
export function addFiles(current: PendingFile[], picked: File[]): { files: PendingFile[]; rejected: string[] } {
  const files = current.slice();
  const rejected: string[] = [];
  for (const file of picked) {
    const key = fileKey(file);
    if (files.some((f) => f.key === key)) continue;
    const mimetype = mimeOf(file);
    const kind = uploadKindOf(mimetype);
    if (!kind) rejected.push(`${file.name}: ${fileTypeNotAllowedText}`);
    else if (file.size > kind.maxBytes) rejected.push(`${file.name}: ${fileTooLargeText(kind.maxBytes)}`);
    else files.push({ key, file, mimetype, caption: '' });
  }
  return { files, rejected };
}

export interface ComposerSend {
  text: string;
  files: PendingFile[];
  voice?: { blob: Blob; mimetype: string };
  /** An internal note (text only): POST /messages/notes, never to the customer. */
  note?: boolean;
}

export interface ComposerProps {
  /** The conversation's contact: the quick replies' variables are filled with it. */
  contact: PickerContact;
  replyTo: ChatMessage | null;
  onClearReply: () => void;
  onSend: (payload: ComposerSend) => void;
  /** 'Nota interna' mode: what is typed is a note for the team (no files, voice nor reply). */
  noteMode: boolean;
  onNoteModeChange: (on: boolean) => void;
  /**
   * Nothing can reach the customer (the connection is down or the contact archived): the composer
   * writes internal notes only, which never go to the channel; the mode cannot be left.
   */
  notesOnly?: boolean;
  /** 'Agendar mensagem' (docs/product.md#scheduled-messages): offered while writing to the customer. */
  onSchedule?: () => void;
}

export const notePlaceholder = 'Escreva uma nota interna (o cliente não vê)';
export const notesOnlyTitle = 'O cliente não pode receber mensagens agora: escreva apenas notas internas';

const shortcuts: [string, string][] = [
  ['Enter', 'Enviar a mensagem'],
  ['Shift + Enter', 'Nova linha'],
  ['/', 'Respostas rápidas (no início do texto)'],
  ['Ctrl/Cmd + E', 'Abrir os emojis'],
  ['Ctrl/Cmd + K', 'Mostrar os atalhos'],
  ['Esc', 'Cancelar a resposta'],
  ['R', 'Começar a gravar áudio (fora da caixa de texto)'],
  ['Espaço', 'Pausar ou continuar a gravação'],
  ['Enter', 'Enviar a gravação'],
  ['Esc', 'Cancelar a gravação'],
];

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT' || el.isContentEditable);
}

/**
 * The composer: text that grows to 120 px, emojis, attachments with captions, voice notes, `/atalho`
 * quick replies, and the 'Nota interna' mode (note colours, text only), the only one while nothing
 * can reach the customer (attachments picked before then wait, hidden, until it can again).
 */
export function Composer({ contact, replyTo, onClearReply, onSend, noteMode: noteChosen, onNoteModeChange, notesOnly = false, onSchedule }: ComposerProps) {
  const noteMode = notesOnly || noteChosen;
  const [text, setText] = useState('');
  const [files, setFiles] = useState<PendingFile[]>([]);
  const [emojiOpen, setEmojiOpen] = useState(false);
  const [helpOpen, setHelpOpen] = useState(false);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const popup = useRef<HTMLDivElement>(null);
  const recorder = useVoiceRecorder();
  const picker = useQuickReplyPicker({ text, setText, contact, textarea });

  const resize = useCallback(() => {
    const el = textarea.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight, maxComposerHeight)}px`;
    el.style.overflowY = el.scrollHeight > maxComposerHeight ? 'auto' : 'hidden';
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: text is the trigger: the textarea's height follows its content
  useEffect(resize, [text, resize]);
  useEffect(() => {
    if (replyTo) textarea.current?.focus();
  }, [replyTo]);

  const send = () => {
    if (noteMode) {
      if (!text.trim()) return; // an empty note is never sent
      onSend({ text: text.trim(), files: [], note: true });
      setText('');
      textarea.current?.focus();
      return;
    }
    if (!text.trim() && files.length === 0) return; // docs/product.md#validation: blank text alone is ignored
    onSend({ text: text.trim(), files });
    setText('');
    setFiles([]);
    textarea.current?.focus();
  };

  const sendVoice = async () => {
    const voice = await recorder.finish();
    if (voice) onSend({ text: '', files: [], voice });
  };

  // Voice shortcuts: R starts (outside text fields); while recording Space pauses, Enter sends, Esc cancels.
  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (document.querySelector('[aria-modal="true"]')) return;
      if (recorder.state === 'idle') {
        if (noteMode) return; // notes are text only
        if ((event.key === 'r' || event.key === 'R') && !event.ctrlKey && !event.metaKey && !event.altKey && !isTyping(event.target)) {
          event.preventDefault();
          void recorder.start();
        }
        return;
      }
      if (event.key === ' ' && !isTyping(event.target)) {
        event.preventDefault();
        recorder.togglePause();
      } else if (event.key === 'Enter') {
        event.preventDefault();
        void sendVoice();
      } else if (event.key === 'Escape') {
        event.preventDefault();
        recorder.cancel();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  });

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (picker.onKeyDown(event)) return;
    const mod = event.ctrlKey || event.metaKey;
    if (mod && event.key.toLowerCase() === 'e') {
      event.preventDefault();
      setEmojiOpen((v) => !v);
    } else if (mod && event.key.toLowerCase() === 'k') {
      event.preventDefault();
      setHelpOpen(true);
    } else if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    } else if (event.key === 'Escape' && replyTo) {
      event.preventDefault();
      onClearReply();
    }
  };

  const insertEmoji = (emoji: string) => {
    const el = textarea.current;
    const start = el?.selectionStart ?? text.length;
    const end = el?.selectionEnd ?? text.length;
    setText(text.slice(0, start) + emoji + text.slice(end));
    setEmojiOpen(false);
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + emoji.length, start + emoji.length);
    });
  };

  const onPick = (event: ChangeEvent<HTMLInputElement>) => {
    const picked = [...(event.target.files ?? [])];
    event.target.value = '';
    const { files: next, rejected } = addFiles(files, picked);
    setFiles(next);
    for (const problem of rejected) showToast({ tone: 'error', title: 'Arquivo não anexado', message: problem });
  };

  if (recorder.state !== 'idle') {
    return (
      <fieldset className="flex min-w-0 items-center gap-3 border-t border-border bg-surface px-3 py-3 sm:px-4" aria-label="Gravação de áudio">
        <Button variant="ghost" size="icon" onClick={recorder.cancel} aria-label="Cancelar gravação">
          <Trash2 className="size-5" aria-hidden="true" />
        </Button>
        <span className="flex items-center gap-2 text-sm font-medium text-fg" aria-live="polite">
          <span className={cn('size-2.5 rounded-full', recorder.state === 'recording' ? 'animate-pulse bg-danger' : 'bg-fg-subtle')} aria-hidden="true" />
          {recorder.state === 'recording' ? 'Gravando' : 'Pausado'}
          <span className="font-mono tabular-nums" data-testid="recording-timer">
            {formatDuration(recorder.elapsed)}
          </span>
        </span>
        <Button
          variant="outline"
          size="icon"
          className="ml-auto"
          onClick={recorder.togglePause}
          aria-label={recorder.state === 'recording' ? 'Pausar gravação' : 'Continuar gravação'}
        >
          {recorder.state === 'recording' ? <Pause className="size-5" aria-hidden="true" /> : <Play className="size-5" aria-hidden="true" />}
        </Button>
        <Button size="icon" onClick={() => void sendVoice()} aria-label="Enviar áudio">
          <Send className="size-5" aria-hidden="true" />
        </Button>
      </fieldset>
    );
  }

  return (
    <div className="border-t border-border bg-surface">
      {noteMode ? (
        <p className="flex items-center gap-1.5 border-b border-note-border bg-note px-4 py-1.5 text-xs font-medium text-note-fg" data-testid="note-mode">
          <NotebookPen className="size-3.5 shrink-0" aria-hidden="true" />
          Nota interna: só a sua equipe vê o que você escrever aqui.
        </p>
      ) : null}
      {replyTo && !noteMode ? (
        <div className="flex items-start gap-3 border-b border-border px-4 py-2">
          <div className="min-w-0 flex-1 border-l-4 border-brand pl-3 text-sm">
            <p className="font-semibold text-brand">Respondendo a {replyTo.isFromMe ? 'você' : 'contato'}</p>
            <p className="truncate text-fg-muted">{summaryText(replyTo)}</p>
          </div>
          <Button variant="ghost" size="sm" onClick={onClearReply} aria-label="Cancelar resposta (Esc)">
            <X className="size-4" aria-hidden="true" />
          </Button>
        </div>
      ) : null}
      {files.length && !noteMode ? (
        <ul className="max-h-52 space-y-2 overflow-y-auto border-b border-border px-4 py-3" aria-label="Arquivos anexados">
          {files.map((f) => (
            <li key={f.key} className="flex items-center gap-3">
              <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-surface-2 text-fg-muted">
                <FileText className="size-5" aria-hidden="true" />
              </span>
              <div className="min-w-0 flex-1">
                <p className="truncate text-sm font-medium text-fg">{f.file.name}</p>
                <input
                  type="text"
                  value={f.caption}
                  onChange={(e) => setFiles((list) => list.map((x) => (x.key === f.key ? { ...x, caption: e.target.value } : x)))}
                  placeholder="Legenda (opcional)"
                  aria-label={`Legenda de ${f.file.name}`}
                  className="mt-1 h-8 w-full rounded-md border border-border-strong bg-surface px-2 text-sm text-fg placeholder:text-fg-subtle focus-visible:outline-2 focus-visible:outline-ring"
                />
              </div>
              <span className="hidden text-xs text-fg-muted sm:block">{formatBytes(f.file.size)}</span>
              <Button variant="ghost" size="icon" onClick={() => setFiles((list) => list.filter((x) => x.key !== f.key))} aria-label={`Remover ${f.file.name}`}>
                <X className="size-4" aria-hidden="true" />
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="relative flex items-end gap-1 px-2 py-2.5 sm:gap-1.5 sm:px-3">
        {emojiOpen ? <EmojiPicker onPick={insertEmoji} onClose={() => setEmojiOpen(false)} /> : null}
        {picker.open ? <QuickReplyPicker picker={picker} ref={popup} /> : null}
        <Button
          variant="ghost"
          size="icon"
          onClick={() => {
            onNoteModeChange(!noteMode);
            textarea.current?.focus();
          }}
          disabled={notesOnly || files.length > 0}
          aria-pressed={noteMode}
          aria-label="Nota interna"
          title={
            notesOnly
              ? notesOnlyTitle
              : files.length > 0
                ? 'Notas internas não levam anexos: remova-os para escrever uma nota'
                : 'Nota interna (o cliente não vê)'
          }
          className={cn(noteMode && 'border border-note-border bg-note text-note-fg hover:bg-note hover:text-note-fg')}
        >
          <NotebookPen className="size-5" aria-hidden="true" />
        </Button>
        <Button variant="ghost" size="icon" onClick={() => setEmojiOpen((v) => !v)} aria-label="Emojis (Ctrl+E)" aria-expanded={emojiOpen}>
          <Smile className="size-5" aria-hidden="true" />
        </Button>
        <Button
          variant="ghost"
          size="icon"
          onClick={() => fileInput.current?.click()}
          disabled={noteMode}
          aria-label="Anexar arquivos"
          title={noteMode ? 'Notas internas não levam anexos' : undefined}
        >
          <Paperclip className="size-5" aria-hidden="true" />
        </Button>
        {onSchedule && !noteMode ? (
          <Button variant="ghost" size="icon" onClick={onSchedule} aria-label="Agendar mensagem" title="Agendar mensagem">
            <CalendarClock className="size-5" aria-hidden="true" />
          </Button>
        ) : null}
        <input
          ref={fileInput}
          type="file"
          multiple
          accept={uploadAccept}
          className="hidden"
          onChange={onPick}
          data-testid="file-input"
          aria-hidden="true"
          tabIndex={-1}
        />
        <label htmlFor="composer-text" className="sr-only">
          {noteMode ? 'Texto da nota interna' : 'Mensagem'}
        </label>
        <textarea
          id="composer-text"
          ref={textarea}
          rows={1}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          onBlur={(e) => picker.onBlur(e.relatedTarget, popup.current)}
          placeholder={noteMode ? notePlaceholder : 'Digite uma mensagem'}
          {...picker.inputProps}
          className={cn(
            'block max-h-[120px] min-h-10 min-w-0 flex-1 resize-none rounded-xl border px-3 py-2 text-sm leading-6 text-fg focus-visible:outline-2 focus-visible:outline-ring',
            noteMode ? 'border-2 border-note-border bg-note placeholder:text-note-fg' : 'border-border-strong bg-bg-subtle placeholder:text-fg-subtle',
          )}
        />
        <Button variant="ghost" size="icon" className="max-sm:hidden" onClick={() => setHelpOpen(true)} aria-label="Atalhos de teclado (Ctrl+K)">
          <Keyboard className="size-5" aria-hidden="true" />
        </Button>
        {noteMode ? (
          <Button size="icon" onClick={send} disabled={!text.trim()} aria-label="Salvar nota">
            <Send className="size-5" aria-hidden="true" />
          </Button>
        ) : text.trim() || files.length ? (
          <Button size="icon" onClick={send} aria-label="Enviar">
            <Send className="size-5" aria-hidden="true" />
          </Button>
        ) : (
          <Button size="icon" onClick={() => void recorder.start()} aria-label="Gravar áudio (R)">
            <Mic className="size-5" aria-hidden="true" />
          </Button>
        )}
      </div>
      <Dialog open={helpOpen} onClose={() => setHelpOpen(false)} title="Atalhos de teclado" size="sm">
        <dl className="space-y-2 text-sm">
          {shortcuts.map(([keys, what]) => (
            <div key={what} className="flex items-center justify-between gap-4">
              <dt>
                <kbd className="rounded border border-border-strong bg-surface-2 px-1.5 py-0.5 font-mono text-xs text-fg">{keys}</kbd>
              </dt>
              <dd className="text-right text-fg-muted">{what}</dd>
            </div>
          ))}
        </dl>
      </Dialog>
    </div>
  );
}
