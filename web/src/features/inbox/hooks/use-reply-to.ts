import { useEffect, useState } from 'react';
import type { ChatMessage } from '#web/features/inbox/api/get-messages.ts';

/** The message being answered: dropped when another conversation opens, and by Esc unless a dialog is open. */
export function useReplyTo(contactId: string) {
  const [replyTo, setReplyTo] = useState<ChatMessage | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: contactId is the trigger: opening another conversation drops the reply
  useEffect(() => setReplyTo(null), [contactId]);
  useEffect(() => {
    if (!replyTo) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !document.querySelector('[aria-modal="true"]')) setReplyTo(null);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [replyTo]);
  return [replyTo, setReplyTo] as const;
}
