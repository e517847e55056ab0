import { useEffect, useRef } from 'react';
import type { Contact } from '#contracts/contacts.ts';
import { useMarkContactRead } from '#web/features/inbox/api/mark-contact-read.ts';

/** Opening a conversation (or a new message while it is open) clears its unread count, once per message at most. */
export function useMarkReadWhenOpen(contact: Contact): void {
  const markRead = useMarkContactRead();
  const lastRead = useRef('');
  useEffect(() => {
    const key = `${contact.id}:${contact.lastMessage?.id ?? ''}`;
    // One call in flight at a time: a burst of messages in the open conversation makes one more
    // call when the previous one has answered, not one per message.
    if (contact.unread > 0 && lastRead.current !== key && !markRead.isPending) {
      lastRead.current = key;
      markRead.mutate(contact.id);
    }
  }, [contact.id, contact.unread, contact.lastMessage?.id, markRead]);
}
