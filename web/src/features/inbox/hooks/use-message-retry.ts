import { useCallback } from 'react';
import { useRetryMessage } from '#web/features/inbox/api/send-message.ts';
import type { ChatMessage } from '#web/features/inbox/api/get-messages.ts';

/** 'Tentar novamente': a local message is sent again from scratch; a stored one that failed is retried by the server. */
export function useMessageRetry() {
  const retry = useRetryMessage();
  const onRetry = useCallback(
    (message: ChatMessage) => {
      if (message.local?.retry) message.local.retry();
      else retry.mutate({ id: message.id, contactId: message.contactId });
    },
    [retry],
  );
  return { onRetry, retrying: retry.isPending };
}
