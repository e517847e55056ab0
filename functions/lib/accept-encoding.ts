/**
 * Which content codings a request's `Accept-Encoding` takes (RFC 9110 section 12.5.3), shared by the
 * API's answer compression (`compress-response.ts`) and the local static server's precompressed copies.
 */
export type Coding = 'br' | 'gzip';

/**
 * The codings a client accepts, best first: `br` before `gzip` at equal weight, `q=0` refuses one,
 * `*` stands for any coding not named. Empty means identity (no header, or nothing we offer taken).
 */
export function acceptedCodings(header: string | string[] | undefined): Coding[] {
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  const weights = new Map<string, number>();
  for (const part of text.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q\s*=\s*([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    weights.set(name.trim(), q === undefined ? 1 : Number(q) || 0);
  }
  const weightOf = (coding: Coding) => weights.get(coding) ?? (coding === 'gzip' ? weights.get('x-gzip') : undefined) ?? weights.get('*') ?? 0;
  return (['br', 'gzip'] as const).filter((c) => weightOf(c) > 0).sort((a, b) => weightOf(b) - weightOf(a));
}
