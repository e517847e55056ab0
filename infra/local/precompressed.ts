/**
 * Content negotiation for the local static server: the build writes a Brotli and a gzip copy next to
 * each text file (web/build/precompress.ts); a request whose Accept-Encoding takes one of them gets
 * it, with the matching Content-Encoding. Every answer that could have differed carries
 * `Vary: Accept-Encoding`, so caches keep the variants apart.
 */
import { stat } from 'node:fs/promises';

export type Coding = 'br' | 'gzip';

const suffixes: Record<Coding, string> = { br: '.br', gzip: '.gz' };

/**
 * The codings a client accepts, best first (RFC 9110 section 12.5.3): `br` before `gzip` at equal
 * weight, `q=0` refuses one, `*` stands for any coding not named.
 */
export function acceptedCodings(header: string | string[] | undefined): Coding[] {
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  const weights = new Map<string, number>();
  for (const part of text.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q\s*=\s*([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    weights.set(name, q === undefined ? 1 : Number(q) || 0);
  }
  const weightOf = (coding: Coding) => weights.get(coding) ?? (coding === 'gzip' ? weights.get('x-gzip') : undefined) ?? weights.get('*') ?? 0;
  return (['br', 'gzip'] as const).filter((c) => weightOf(c) > 0).sort((a, b) => weightOf(b) - weightOf(a));
}

/** The precompressed copy of `file` to send for this Accept-Encoding, if the build wrote one. */
export async function precompressedVariant(
  file: string,
  acceptEncoding: string | string[] | undefined,
): Promise<{ path: string; coding: Coding; size: number } | undefined> {
  for (const coding of acceptedCodings(acceptEncoding)) {
    const path = file + suffixes[coding];
    try {
      const info = await stat(path);
      if (info.isFile()) return { path, coding, size: info.size };
    } catch {
      /* no such variant: try the next */
    }
  }
  return undefined;
}

/** Whether the build may have written compressed copies of this file (so answers vary on Accept-Encoding). */
export function isCompressible(file: string): boolean {
  return /\.(?:js|mjs|css|html|svg|json|txt|webmanifest|xml)$/.test(file);
}
