import { useCallback, useLayoutEffect, useRef, type RefObject } from 'react';
import type { Virtualizer } from '@tanstack/react-virtual';
import type { ChatMessage } from '#web/features/inbox/api/get-messages.ts';
import type { MessageRow } from './use-message-rows.ts';

interface Anchor {
  firstId: string | undefined;
  lastId: string | undefined;
  atBottom: boolean;
  /** The first message bubble in view and its distance from the top of the scroll area. */
  viewId: string | undefined;
  viewDelta: number;
}

/** How close to the bottom still counts as reading the latest messages. */
const bottomSlackPx = 80;

/** The first message bubble in view in the scroll area and its distance from the area's top. */
function bubbleInView(el: HTMLDivElement | null): { id: string; delta: number } | null {
  if (!el) return null;
  const top = el.getBoundingClientRect().top;
  for (const bubble of el.querySelectorAll<HTMLElement>('[data-message-id]')) {
    const rect = bubble.getBoundingClientRect();
    if (rect.bottom > top) return { id: bubble.dataset.messageId!, delta: rect.top - top };
  }
  return null;
}

/** How long, at most, the message in view is held in place while the rows above are measured. */
const holdMaxMs = 2000;
/** Frames in a row with nothing to correct after which the rows above count as measured... */
const settledFrames = 8;
/** ...but not before this long: the older page's rows render and resize over several frames. */
const holdMinMs = 400;

/**
 * Puts the bubble back `delta` px below the scroll area's top, now and on every frame while the rows
 * above it are measured (they render and resize over several frames, later on a loaded machine),
 * until nothing moved for a few frames, the reader scrolls by hand, or the time is up.
 */
function holdView(el: HTMLDivElement, id: string, delta: number): () => void {
  const started = performance.now();
  let quiet = 0;
  let frame: number | undefined;
  const restore = () => {
    const bubble = el.querySelector<HTMLElement>(`[data-message-id="${CSS.escape(id)}"]`);
    if (!bubble) return false;
    const off = bubble.getBoundingClientRect().top - el.getBoundingClientRect().top - delta;
    if (Math.abs(off) < 1) return false;
    el.scrollTop += off;
    return true;
  };
  const stop = () => {
    if (frame !== undefined) cancelAnimationFrame(frame);
    frame = undefined;
    for (const type of userScrolls) el.removeEventListener(type, stop);
  };
  const tick = () => {
    quiet = restore() ? 0 : quiet + 1;
    const held = performance.now() - started;
    if ((quiet >= settledFrames && held >= holdMinMs) || held > holdMaxMs) stop();
    else frame = requestAnimationFrame(tick);
  };
  for (const type of userScrolls) el.addEventListener(type, stop, { passive: true });
  restore();
  frame = requestAnimationFrame(tick);
  return stop;
}

/** Input by which the reader scrolls by hand: holding the view then would fight them. */
const userScrolls = ['wheel', 'touchstart', 'pointerdown', 'keydown'] as const;

/**
 * Keeps the reading position when older messages are added above, and follows new ones at the
 * bottom. The position is anchored on the first message in view: after older ones are added (and
 * the 'Carregar mais' row may go), that message is put back exactly where it was, and held there
 * while the rows above it are measured.
 */
export function useScrollAnchor(
  scrollRef: RefObject<HTMLDivElement | null>,
  list: ChatMessage[],
  rows: MessageRow[],
  virtualizer: Virtualizer<HTMLDivElement, Element>,
) {
  const anchor = useRef<Anchor>({ firstId: undefined, lastId: undefined, atBottom: true, viewId: undefined, viewDelta: 0 });
  const follow = useRef<number | undefined>(undefined);
  const settle = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const viewFrame = useRef<number | undefined>(undefined);
  const hold = useRef<(() => void) | undefined>(undefined);

  /** Notes the message in view, to put it back after older ones are added above. */
  const rememberView = useCallback(() => {
    const seen = bubbleInView(scrollRef.current);
    anchor.current.viewId = seen?.id;
    anchor.current.viewDelta = seen?.delta ?? 0;
  }, [scrollRef]);

  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const firstId = list[0]?.id;
    const lastId = list.at(-1)?.id;
    const prev = anchor.current;
    if (prev.firstId && firstId !== prev.firstId && lastId === prev.lastId && prev.viewId) {
      // Put the bubble that was in view back where it was (the rows above it changed, and so may
      // its own day separator).
      const index = rows.findIndex((r) => r.kind === 'message' && r.message.id === prev.viewId);
      const start = index >= 0 ? virtualizer.measurementsCache[index]?.start : undefined;
      if (start !== undefined) el.scrollTop = start - prev.viewDelta;
      hold.current?.();
      hold.current = holdView(el, prev.viewId, prev.viewDelta);
    } else if (lastId !== prev.lastId && (prev.atBottom || list.at(-1)?.isFromMe || !prev.lastId)) {
      // Follow the new message down before the next paint, and once more after the rows below
      // have been measured. Never here: reading scrollHeight right after the commit forces a
      // layout per message; a burst shares one pass per frame. Going down ends any hold of the
      // view after older messages were added.
      hold.current?.();
      follow.current ??= requestAnimationFrame(() => {
        follow.current = undefined;
        el.scrollTop = el.scrollHeight;
        clearTimeout(settle.current);
        settle.current = setTimeout(() => {
          el.scrollTop = el.scrollHeight;
        }, 60);
      });
    }
    anchor.current = { ...anchor.current, firstId, lastId };
    // The message in view is noted on scroll and before older ones load (rememberView); a new one
    // added below does not move it, so nothing to read here (it would force a layout per message).
  }, [list, rows, virtualizer, scrollRef]);

  useLayoutEffect(
    () => () => {
      if (follow.current !== undefined) cancelAnimationFrame(follow.current);
      clearTimeout(settle.current);
      if (viewFrame.current !== undefined) cancelAnimationFrame(viewFrame.current);
      hold.current?.();
    },
    [],
  );

  const onScroll = () => {
    // Reading the scroll box and every bubble's position on each scroll event forces layouts (and
    // following a burst scrolls on every frame): once a frame is enough.
    viewFrame.current ??= requestAnimationFrame(() => {
      viewFrame.current = undefined;
      const el = scrollRef.current;
      if (!el) return;
      anchor.current.atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < bottomSlackPx;
      rememberView();
    });
  };

  /** The next new message is followed to the bottom (one's own send). */
  const followBottom = () => {
    anchor.current.atBottom = true;
  };

  return { onScroll, rememberView, followBottom };
}
