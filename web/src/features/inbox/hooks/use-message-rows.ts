import { useMemo } from 'react';
import { dayKey, formatDayLabel } from '#web/lib/format.ts';
import { flattenMessages, type ChatMessage } from '#web/features/inbox/api/get-messages.ts';

/** A row of the conversation: 'Carregar mais' on top, or a message with the day separator it opens. */
export type MessageRow = { kind: 'more' } | { kind: 'message'; message: ChatMessage; day: string | null };

/**
 * The loaded messages in reading order and the rows shown for them: 'Carregar mais' first while
 * older pages exist; a day separator belongs to the first message of each day.
 */
export function useMessageRows(data: Parameters<typeof flattenMessages>[0], hasOlder: boolean) {
  const list = useMemo(() => flattenMessages(data), [data]);
  const rows = useMemo<MessageRow[]>(() => {
    const out: MessageRow[] = hasOlder ? [{ kind: 'more' }] : [];
    let previous = '';
    for (const message of list) {
      const key = dayKey(message.timestamp);
      out.push({ kind: 'message', message, day: key !== previous ? formatDayLabel(message.timestamp) : null });
      previous = key;
    }
    return out;
  }, [list, hasOlder]);
  return { list, rows };
}
