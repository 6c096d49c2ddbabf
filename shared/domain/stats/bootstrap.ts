// Seeded session-cluster bootstrap: records of one session are not independent, so whole sessions are resampled.
import { pearsonFromMoments } from './correlation';
import type { BivariateMoments } from './moments';
import type { Interval } from './correlation';

export { mulberry32 } from '../random';

/** Linear-interpolated quantile (type 7, as R's default and numpy's "linear") of sorted values. */
export function quantileSorted(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(n - 1, lo + 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

export interface BootstrapOptions {
  resamples: number;
  seed: number;
  level?: number;
}

export interface BootstrapResult extends Interval {
  /** Replicates with a defined r (a resample whose x or y has no variance is dropped). */
  valid: number;
}

/**
 * Percentile CI of the pooled Pearson r, resampling sessions with replacement. Each session is reduced to sums of
 * deviations from the global means (stable raw-sum form), so one replicate costs O(sessions) additions.
 * Null when fewer than 2 sessions or no replicate had a defined r.
 */
export function clusterBootstrapCorrelation(sessions: readonly BivariateMoments[], opts: BootstrapOptions): BootstrapResult | null {
  const k = sessions.length;
  if (k < 2 || opts.resamples < 1) return null;
  let total = 0;
  let gx = 0;
  let gy = 0;
  for (const s of sessions) {
    total += s.n;
    gx += s.n * s.meanX;
    gy += s.n * s.meanY;
  }
  if (total === 0) return null;
  gx /= total;
  gy /= total;
  // Interleaved [n, Σdx, Σdy, Σdx², Σdy², Σdxdy] per session: one cache line per draw.
  const D = new Float64Array(6 * k);
  sessions.forEach((s, i) => {
    const dx = s.meanX - gx;
    const dy = s.meanY - gy;
    const o = 6 * i;
    D[o] = s.n;
    D[o + 1] = s.n * dx;
    D[o + 2] = s.n * dy;
    D[o + 3] = s.m2x + s.n * dx * dx;
    D[o + 4] = s.m2y + s.n * dy * dy;
    D[o + 5] = s.cxy + s.n * dx * dy;
  });
  // mulberry32 inlined (same stream as mulberry32(seed)); index = floor(u · k) with u in [0, 1).
  let state = opts.seed >>> 0;
  const rs = new Float64Array(opts.resamples);
  let valid = 0;
  for (let b = 0; b < opts.resamples; b++) {
    let n = 0;
    let sx = 0;
    let sy = 0;
    let sxx = 0;
    let syy = 0;
    let sxy = 0;
    for (let j = 0; j < k; j++) {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      const o = 6 * Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * k);
      n += D[o]!;
      sx += D[o + 1]!;
      sy += D[o + 2]!;
      sxx += D[o + 3]!;
      syy += D[o + 4]!;
      sxy += D[o + 5]!;
    }
    const m2x = sxx - (sx * sx) / n;
    const m2y = syy - (sy * sy) / n;
    const r = pearsonFromMoments({ n, meanX: 0, meanY: 0, m2x, m2y, cxy: sxy - (sx * sy) / n });
    if (r !== null) rs[valid++] = r;
  }
  if (valid === 0) return null;
  const sorted = rs.subarray(0, valid).sort();
  const alpha = 1 - (opts.level ?? 0.95);
  return { lower: quantileSorted(sorted, alpha / 2), upper: quantileSorted(sorted, 1 - alpha / 2), valid };
}
