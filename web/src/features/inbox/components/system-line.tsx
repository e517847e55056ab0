import { formatClockTime, formatMessageTime } from '#web/lib/format.ts';
import type { ChatMessage } from '#web/features/inbox/api/get-messages.ts';

/**
 * An assignment or status line written by the server ('Ana assumiu a conversa · 14:02'): centred
 * across the thread between two rules, small and muted, with no bubble, ack nor actions. The time
 * is HH:mm: the day separator above already names the day.
 */
export function SystemLine({ message }: { message: ChatMessage }) {
  return (
    <div className="flex items-center gap-3 px-6 py-0.5 sm:px-10" data-testid="system-line" data-message-id={message.id}>
      <span className="h-px flex-1 bg-border" aria-hidden="true" />
      <p className="max-w-[80%] text-center text-xs text-fg-muted">
        {message.text} ·{' '}
        <time dateTime={message.timestamp} title={formatMessageTime(message.timestamp)}>
          {formatClockTime(message.timestamp)}
        </time>
      </p>
      <span className="h-px flex-1 bg-border" aria-hidden="true" />
    </div>
  );
}
