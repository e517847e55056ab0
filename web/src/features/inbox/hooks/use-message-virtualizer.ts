import type { RefObject } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { MessageRow } from './use-message-rows.ts';

/**
 * Only the rows in view (and 8 around) are in the DOM. Rows are measured as they render and keyed
 * by message id, so measurements survive older pages being added above.
 */
export function useMessageVirtualizer(rows: MessageRow[], scrollRef: RefObject<HTMLDivElement | null>) {
  return useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => (rows[i]?.kind === 'more' ? 56 : 76),
    getItemKey: (i) => {
      const row = rows[i]!;
      return row.kind === 'more' ? 'more' : row.message.id;
    },
    overscan: 8,
    initialRect: { width: 800, height: 600 },
    // Scroll events update the rows in React's normal batching, not in a flushSync render inside
    // the event: following a burst of messages scrolls on every frame.
    useFlushSync: false,
  });
}
