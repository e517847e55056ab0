import { cn } from '#web/lib/cn.ts';

/** Relative luminance of `#rrggbb` (WCAG 2). */
function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/**
 * Black or white, whichever reads better on the tag's colour: the better of the two is always at
 * least 4.58:1, so any colour an admin picks stays legible (WCAG AA).
 */
export function textOn(hex: string): '#000000' | '#ffffff' {
  if (!/^#[0-9a-fA-F]{6}$/.test(hex)) return '#000000';
  const l = luminance(hex);
  return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? '#000000' : '#ffffff';
}

/** textOn once per colour: a palette has a handful, drawn on every row of the lists. */
const textByColour = new Map<string, '#000000' | '#ffffff'>();
function cachedTextOn(hex: string): '#000000' | '#ffffff' {
  let text = textByColour.get(hex);
  if (!text) {
    text = textOn(hex);
    textByColour.set(hex, text);
  }
  return text;
}

/** A tag as a coloured pill with its name. */
export function TagChip({ name, color, className }: { name: string; color: string; className?: string }) {
  return (
    <span
      className={cn('inline-flex max-w-40 items-center rounded-full px-2 py-0.5 text-xs font-medium', className)}
      style={{ backgroundColor: color, color: cachedTextOn(color) }}
      title={name}
    >
      <span className="truncate">{name}</span>
    </span>
  );
}
