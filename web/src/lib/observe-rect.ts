import { elementScroll, type Virtualizer } from '@tanstack/react-virtual';

/**
 * A virtualised list's viewport size from a ResizeObserver alone, for `useVirtualizer`'s
 * `observeElementRect`. The library's own reads the scroll element's clientWidth/clientHeight as
 * the list mounts, inside React's layout effects: that forces the browser to lay out the whole page
 * there and then, in the same task as the render (225 ms of the inbox's first load at a 4x CPU
 * slowdown, the largest item of its profile), and again once the rows it then renders are in. The
 * observer reports the first size after the browser's own layout of the frame, so the list renders
 * from `initialRect` first and corrects on that report. Only for a scroll element without padding
 * (the inbox's contact list), whose content box is the client box the library would have read.
 */
export function observeRectAfterLayout<E extends Element>(instance: Virtualizer<E, Element>, cb: (rect: { width: number; height: number }) => void) {
  const element = instance.scrollElement;
  if (!element || typeof ResizeObserver === 'undefined') return;
  const observer = new ResizeObserver(([entry]) => {
    const box = entry?.contentBoxSize?.[0];
    if (box) cb({ width: Math.round(box.inlineSize), height: Math.round(box.blockSize) });
    else if (entry) cb({ width: Math.round(entry.contentRect.width), height: Math.round(entry.contentRect.height) });
  });
  observer.observe(element);
  return () => observer.disconnect();
}

const attached = new WeakSet<Element>();

/**
 * The library's `elementScroll` for `useVirtualizer`'s `scrollToFn`, less its first write: as a
 * scroll element attaches, the library scrolls it to the initial offset, and `scrollTo` makes the
 * browser lay out the whole page inside React's layout effects (115-140 ms of /inbox's first load
 * at a 4x CPU slowdown, its largest function). A new element already sits at 0, so that write is
 * skipped when it asks for 0; every later one goes through.
 */
export function scrollAfterAttach<E extends Element>(
  offset: number,
  options: { adjustments?: number; behavior?: ScrollBehavior },
  instance: Virtualizer<E, Element>,
) {
  const element = instance.scrollElement;
  if (element && !attached.has(element)) {
    attached.add(element);
    if (offset + (options.adjustments ?? 0) === 0) return;
  }
  elementScroll(offset, options, instance);
}
