/**
 * Durations kept as counts in fixed, log-spaced buckets (ADR-0234): one day's
 * histogram adds to any other's, so the median and the 90th percentile of any period come from
 * the sum of its days' histograms, with a bounded error instead of a mean of daily medians.
 *
 * Bucket 0 holds [0, 1 s); bucket i ≥ 1 holds [1 s·2^((i−1)/4), 1 s·2^(i/4)), the last one open
 * above (about 388 days). A percentile is the nearest rank (the ⌈p·n⌉-th smallest sample); its
 * bucket is always the exact sample's bucket, and the value answered is the bucket's geometric
 * middle: at most 2^(1/8) − 1 ≈ 9.05 % from the exact value from 1 s up, at most 500 ms below.
 */

/** Bucket index → count, sparse (a map in the table). */
export type DurationHistogram = Record<string, number>;

const stepsPerDoubling = 4;
const lastBucket = 100;

const lowerBound = (bucket: number): number => (bucket === 0 ? 0 : 1000 * 2 ** ((bucket - 1) / stepsPerDoubling));

/** The bucket of a duration in milliseconds (negative ones count as 0). */
export function bucketOf(ms: number): number {
  if (!(ms >= 1000)) return 0;
  let bucket = Math.min(lastBucket, Math.floor(Math.log2(ms / 1000) * stepsPerDoubling) + 1);
  // Float rounding at an edge: settle on the bucket whose bounds hold the value.
  while (bucket > 1 && ms < lowerBound(bucket)) bucket--;
  while (bucket < lastBucket && ms >= lowerBound(bucket + 1)) bucket++;
  return bucket;
}

/** The value a percentile in this bucket answers: its geometric middle (500 ms for bucket 0). */
export function bucketValue(bucket: number): number {
  if (bucket === 0) return 500;
  return Math.round(1000 * 2 ** ((bucket - 0.5) / stepsPerDoubling));
}

export function addDuration(histogram: DurationHistogram, ms: number): void {
  const bucket = String(bucketOf(ms));
  histogram[bucket] = (histogram[bucket] ?? 0) + 1;
}

export function mergeHistograms(into: DurationHistogram, from: DurationHistogram | undefined): void {
  for (const [bucket, count] of Object.entries(from ?? {})) into[bucket] = (into[bucket] ?? 0) + count;
}

export const histogramCount = (histogram: DurationHistogram): number => Object.values(histogram).reduce((sum, n) => sum + n, 0);

/** The bucket holding the nearest-rank p-quantile (0 < p ≤ 1), or null for an empty histogram. */
export function percentileBucket(histogram: DurationHistogram, p: number): number | null {
  const count = histogramCount(histogram);
  if (count === 0) return null;
  const rank = Math.max(1, Math.ceil(p * count));
  let seen = 0;
  const buckets = Object.keys(histogram)
    .map(Number)
    .sort((a, b) => a - b);
  for (const bucket of buckets) {
    seen += histogram[String(bucket)] ?? 0;
    if (seen >= rank) return bucket;
  }
  return buckets.at(-1) ?? null;
}

/** The nearest-rank p-quantile as the bucket's middle, or null without a sample. */
export function percentile(histogram: DurationHistogram, p: number): number | null {
  const bucket = percentileBucket(histogram, p);
  return bucket === null ? null : bucketValue(bucket);
}
