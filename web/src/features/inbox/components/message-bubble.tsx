import { memo } from 'react';
import { Bot, Clock, FileText, Forward, Mic, NotebookPen, Reply, RotateCcw } from 'lucide-react';
import { ack } from '#contracts/message-acks.ts';
import type { MessageReaction, MessageSummary } from '#contracts/messages.ts';
import { cn } from '#web/lib/cn.ts';
import { formatBytes, formatMessageTime } from '#web/lib/format.ts';
import type { ChatMessage } from '#web/features/inbox/api/get-messages.ts';
import { AckStatus } from './ack-status.tsx';
import { SystemLine } from './system-line.tsx';

const typeLabels: Record<string, string> = {
  image: 'Imagem',
  video: 'Vídeo',
  audio: 'Áudio',
  voice: 'Mensagem de voz',
  document: 'Documento',
};

/** One line describing a message (quotes, the list preview). */
export function summaryText(m: Pick<MessageSummary, 'text' | 'type' | 'file'>): string {
  if (m.text) return m.text;
  if (m.type !== 'text') return m.file?.name ? `${typeLabels[m.type] ?? 'Arquivo'}: ${m.file.name}` : (typeLabels[m.type] ?? 'Arquivo');
  return '';
}

function Quote({ quoted, fromMe }: { quoted: MessageSummary; fromMe: boolean }) {
  return (
    <div className={cn('mb-1.5 rounded-md border-l-4 px-2.5 py-1.5 text-xs', fromMe ? 'border-brand-fg/60 bg-black/10' : 'border-brand bg-surface-2')}>
      <p className="font-semibold">{quoted.isFromMe ? 'Você' : 'Contato'}</p>
      <p className="line-clamp-2 opacity-90">{summaryText(quoted)}</p>
    </div>
  );
}

function Media({ message }: { message: ChatMessage }) {
  const file = message.file;
  if (!file) return null;
  const name = file.name || file.filename || 'arquivo';
  switch (message.type) {
    case 'image':
      return (
        <a href={file.url} target="_blank" rel="noreferrer" className="mb-1 block">
          <img
            src={file.url}
            alt={message.text || name}
            loading="lazy"
            className="max-h-72 w-auto max-w-full rounded-lg object-contain"
            width={280}
            height={210}
          />
        </a>
      );
    case 'video':
      // biome-ignore lint/a11y/useMediaCaption: customers' videos arrive from the channel with no caption track to offer
      return <video src={file.url} controls preload="metadata" className="mb-1 max-h-72 w-full max-w-xs rounded-lg" aria-label={`Vídeo ${name}`} />;
    case 'voice':
      return (
        <div className="mb-1 flex items-center gap-2">
          <Mic className="size-4 shrink-0" aria-hidden="true" />
          {/* biome-ignore lint/a11y/useMediaCaption: voice notes are recorded by people, with no caption track available */}
          <audio src={file.url} controls preload="metadata" className="h-10 w-60 max-w-full" aria-label="Mensagem de voz" />
        </div>
      );
    case 'audio':
      // biome-ignore lint/a11y/useMediaCaption: audio files are sent by people, with no caption track available
      return <audio src={file.url} controls preload="metadata" className="mb-1 h-10 w-64 max-w-full" aria-label={`Áudio ${name}`} />;
    default:
      return (
        <a
          href={file.url}
          target="_blank"
          rel="noreferrer"
          download={name}
          className="mb-1 flex items-center gap-3 rounded-lg bg-black/5 px-3 py-2 hover:bg-black/10 dark:bg-white/5"
        >
          <FileText className="size-8 shrink-0" aria-hidden="true" />
          <span className="min-w-0">
            <span className="block truncate text-sm font-medium">{name}</span>
            <span className="block text-xs">
              {file.mimetype.split('/').pop()?.toUpperCase().slice(0, 12)} · {formatBytes(file.size)}
            </span>
          </span>
        </a>
      );
  }
}

/** What a screen reader says for a message's reactions, e.g. 'Reações: 👍 2, ❤️ 1'. */
export function reactionsLabel(reactions: MessageReaction[]): string {
  return `Reações: ${reactions.map((r) => `${r.emoji} ${r.count}`).join(', ')}`;
}

/**
 * Reactions as small chips under the bubble (never bubbles of their own); the count shows from
 * two. Read as one image with its label (the chips themselves are decoration).
 */
function Reactions({ reactions, mine }: { reactions: MessageReaction[]; mine: boolean }) {
  return (
    <div role="img" aria-label={reactionsLabel(reactions)} className={cn('mt-0.5 flex flex-wrap gap-1 px-2', mine ? 'justify-end' : 'justify-start')}>
      {reactions.map((r) => (
        <span
          key={r.emoji}
          data-testid="reaction"
          className={cn(
            'flex h-6 items-center gap-0.5 rounded-full border px-1.5 text-sm leading-none shadow-sm',
            r.fromMe ? 'border-brand/50 bg-brand-soft text-brand-soft-fg' : 'border-border bg-surface text-fg',
          )}
        >
          <span>{r.emoji}</span>
          {r.count > 1 ? <span className="text-xs font-medium tabular-nums">{r.count}</span> : null}
        </span>
      ))}
    </div>
  );
}

export interface MessageBubbleProps {
  message: ChatMessage;
  /** Absent when the customer cannot be written to: no 'Responder' then. */
  onReply?: (message: ChatMessage) => void;
  /** 'Encaminhar': offered on messages exchanged with the customer (not notes, system lines, deleted ones or sends still local). */
  onForward?: (message: ChatMessage) => void;
  onRetry: (message: ChatMessage) => void;
  retrying?: boolean;
}

/**
 * A message: its quote, media or document card, text, time, ack and, when it failed, the reason and
 * a retry. An internal note is a bubble of its own colour, headed 'Nota interna · {author}', with no
 * ack, reactions nor 'Responder' (a reply would quote the note to the customer); a system line is
 * no bubble at all.
 */
export const MessageBubble = memo(function MessageBubble({ message, onReply, onForward, onRetry, retrying }: MessageBubbleProps) {
  if (message.kind === 'system') return <SystemLine message={message} />;
  const note = message.kind === 'note';
  const mine = message.isFromMe;
  const deleted = message.ack === ack.deleted;
  const failed = message.ack === ack.error;
  const progress = message.local?.state === 'sending' ? message.local.progress : undefined;
  return (
    <div className={cn('group flex px-3 sm:px-6', mine ? 'justify-end' : 'justify-start')}>
      <div className={cn('flex max-w-[85%] items-end gap-1 sm:max-w-[70%]', mine ? 'flex-row-reverse' : 'flex-row')}>
        <div className="flex min-w-0 flex-col">
          <div
            className={cn(
              'rounded-2xl px-3 py-2 text-sm shadow-sm',
              note
                ? 'rounded-br-md border border-note-border bg-note text-note-fg'
                : mine
                  ? 'rounded-br-md bg-brand text-brand-fg'
                  : 'rounded-bl-md border border-border bg-surface text-fg',
              failed && 'ring-2 ring-danger',
            )}
            data-testid="message"
            data-message-id={message.id}
            data-kind={message.kind}
          >
            {note ? (
              <p className="mb-1 flex items-center gap-1.5 text-xs font-semibold">
                <NotebookPen className="size-3.5 shrink-0" aria-hidden="true" />
                <span>Nota interna{message.user ? <span className="font-normal"> · {message.user.name}</span> : null}</span>
              </p>
            ) : null}
            {message.groupContact && !mine ? <p className="mb-0.5 text-xs font-semibold text-brand">{message.groupContact.name}</p> : null}
            {message.quotedMessage ? <Quote quoted={message.quotedMessage} fromMe={mine} /> : null}
            {deleted ? (
              <p className="italic">Mensagem apagada</p>
            ) : (
              <>
                <Media message={message} />
                {message.text ? <p className="break-words whitespace-pre-wrap">{message.text}</p> : null}
              </>
            )}
            {progress !== undefined && message.file ? (
              <div
                className="mt-1.5 h-1 overflow-hidden rounded-full bg-black/20"
                role="progressbar"
                aria-label="Enviando arquivo"
                aria-valuenow={Math.round(progress * 100)}
                aria-valuemin={0}
                aria-valuemax={100}
              >
                <div className="h-full bg-current transition-[width]" style={{ width: `${Math.round(progress * 100)}%` }} />
              </div>
            ) : null}
            <p className={cn('mt-1 flex items-center justify-end gap-1 text-[11px]', note ? 'text-note-fg' : mine ? 'text-brand-fg' : 'text-fg-muted')}>
              {mine && !note && message.user ? <span className="mr-1 truncate">{message.user.name} ·</span> : null}
              {mine && message.automated ? (
                <span className="mr-1 inline-flex items-center gap-1" data-testid="automated">
                  <Bot className="size-3 shrink-0" aria-hidden="true" />
                  Automática ·
                </span>
              ) : null}
              {message.forwarded ? (
                <span className="mr-1 inline-flex items-center gap-1 italic" data-testid="forwarded">
                  <Forward className="size-3 shrink-0" aria-hidden="true" />
                  Encaminhada ·
                </span>
              ) : null}
              {mine && message.signed ? (
                <span className="mr-1" data-testid="signed" title="Enviada ao cliente com o nome de quem enviou">
                  Assinada ·
                </span>
              ) : null}
              <time dateTime={message.timestamp}>{formatMessageTime(message.timestamp)}</time>
              {/* The error icon's red is lost on the brand green: there it takes the bubble's text colour (the red ring and the reason mark the failure). */}
              {mine && !note ? <AckStatus ack={message.ack} className={failed ? '[&>svg]:text-current' : undefined} /> : null}
            </p>
            {mine && !note && message.ack === ack.sending && message.waiting ? (
              <p className="mt-1.5 flex items-start gap-1.5 rounded-md bg-black/20 px-2 py-1 text-xs" data-testid="send-waiting">
                <Clock className="mt-px size-3 shrink-0" aria-hidden="true" />
                <span>{message.waiting}</span>
              </p>
            ) : null}
            {failed ? (
              <div
                className={cn(
                  'mt-1.5 flex flex-wrap items-center gap-2 rounded-md px-2 py-1 text-xs',
                  mine && !note ? 'bg-black/20' : 'bg-danger-soft text-danger',
                )}
              >
                <span>{message.error || 'Não foi possível enviar a mensagem'}</span>
                <button
                  type="button"
                  onClick={() => onRetry(message)}
                  disabled={retrying}
                  className="inline-flex items-center gap-1 font-semibold underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-ring"
                >
                  <RotateCcw className="size-3" aria-hidden="true" />
                  Tentar novamente
                </button>
              </div>
            ) : null}
          </div>
          {!deleted && !note && message.reactions?.length ? <Reactions reactions={message.reactions} mine={mine} /> : null}
        </div>
        {onReply && !deleted && !note && !message.local ? (
          <button
            type="button"
            onClick={() => onReply(message)}
            className="flex size-8 shrink-0 items-center justify-center rounded-full text-fg-muted opacity-60 group-hover:opacity-100 hover:bg-surface-2 hover:text-fg focus-visible:opacity-100 focus-visible:outline-2 focus-visible:outline-ring"
            aria-label="Responder"
            title="Responder"
          >
            <Reply className="size-4" aria-hidden="true" />
          </button>
        ) : null}
        {onForward && !deleted && !note && !message.local ? (
          <button
            type="button"
            onClick={() => onForward(message)}
            className="flex size-8 shrink-0 items-center justify-center rounded-full text-fg-muted opacity-60 group-hover:opacity-100 hover:bg-surface-2 hover:text-fg focus-visible:opacity-100 focus-visible:outline-2 focus-visible:outline-ring"
            aria-label="Encaminhar"
            title="Encaminhar"
          >
            <Forward className="size-4" aria-hidden="true" />
          </button>
        ) : null}
      </div>
    </div>
  );
});
