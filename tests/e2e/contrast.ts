/**
 * WCAG 2 contrast ratios of colours as the browser computes them (`rgb(r, g, b)` or
 * `rgba(r, g, b, a)`, opaque ones: callers resolve a transparent background to what lies behind).
 */
function luminance(color: string): number {
  const [r, g, b] = (color.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => {
    const c = Number(v) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  if (b === undefined) throw new Error(`not a computed colour: ${color}`);
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b;
}

/** The contrast ratio of two computed colours, rounded to two decimals (4.5 is AA for text). */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return Math.round(((light! + 0.05) / (dark! + 0.05)) * 100) / 100;
}
