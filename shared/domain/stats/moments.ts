// Sufficient statistics and the one set of variance definitions used everywhere (docs/decisions/040).
//
//  - Sample variance (divisor n − 1) for every spread that describes scores: reviewer SD, per-session reviewer
//    SD, harshness/generosity bands, the SD of session means behind anomaly z-scores, per-position CIs.
//  - Population variance (divisor k) for exactly one metric: `position score variance`, the variance of the k
//    position means of one session or one window (ADR-015's np.var definition; the k positions are the whole
//    population being described, not a sample). Its threshold is defined on that scale.
//
// Moments are kept centred (mean and sum of squared deviations, "M2") and combined with Chan et al.'s parallel
// formulas, so SQL partial aggregates (AVG, VAR_POP·n, COVAR_POP·n) and in-memory data give the same estimates.

/** Univariate sufficient statistics: count, mean and M2 = Σ(y − ȳ)². */
export interface Moments {
  n: number;
  mean: number;
  m2: number;
}

/** Bivariate sufficient statistics for (x, y): count, means, Σ(x−x̄)², Σ(y−ȳ)², Σ(x−x̄)(y−ȳ). */
export interface BivariateMoments {
  n: number;
  meanX: number;
  meanY: number;
  m2x: number;
  m2y: number;
  cxy: number;
}

export const EMPTY_MOMENTS: Moments = Object.freeze({ n: 0, mean: 0, m2: 0 });
export const EMPTY_BIVARIATE: BivariateMoments = Object.freeze({ n: 0, meanX: 0, meanY: 0, m2x: 0, m2y: 0, cxy: 0 });

export function momentsOf(values: readonly number[]): Moments {
  let n = 0;
  let mean = 0;
  let m2 = 0;
  for (const v of values) {
    n++;
    const d = v - mean;
    mean += d / n;
    m2 += d * (v - mean);
  }
  return { n, mean, m2 };
}

export function combineMoments(a: Moments, b: Moments): Moments {
  if (a.n === 0) return b;
  if (b.n === 0) return a;
  const n = a.n + b.n;
  const d = b.mean - a.mean;
  return { n, mean: a.mean + (d * b.n) / n, m2: a.m2 + b.m2 + (d * d * a.n * b.n) / n };
}

export function bivariateOf(xs: readonly number[], ys: readonly number[]): BivariateMoments {
  if (xs.length !== ys.length) throw new RangeError('x and y must have the same length');
  let n = 0;
  let mx = 0;
  let my = 0;
  let m2x = 0;
  let m2y = 0;
  let cxy = 0;
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i]!;
    const y = ys[i]!;
    n++;
    const dx = x - mx;
    const dy = y - my;
    mx += dx / n;
    my += dy / n;
    m2x += dx * (x - mx);
    m2y += dy * (y - my);
    cxy += dx * (y - my);
  }
  return { n, meanX: mx, meanY: my, m2x, m2y, cxy };
}

export function combineBivariate(a: BivariateMoments, b: BivariateMoments): BivariateMoments {
  if (a.n === 0) return b;
  if (b.n === 0) return a;
  const n = a.n + b.n;
  const dx = b.meanX - a.meanX;
  const dy = b.meanY - a.meanY;
  const w = (a.n * b.n) / n;
  return {
    n,
    meanX: a.meanX + (dx * b.n) / n,
    meanY: a.meanY + (dy * b.n) / n,
    m2x: a.m2x + b.m2x + dx * dx * w,
    m2y: a.m2y + b.m2y + dy * dy * w,
    cxy: a.cxy + b.cxy + dx * dy * w,
  };
}

export const combineAllMoments = (parts: Iterable<Moments>) => {
  let acc = EMPTY_MOMENTS;
  for (const p of parts) acc = combineMoments(acc, p);
  return acc;
};
export const combineAllBivariate = (parts: Iterable<BivariateMoments>) => {
  let acc = EMPTY_BIVARIATE;
  for (const p of parts) acc = combineBivariate(acc, p);
  return acc;
};

/** Sample variance (n − 1); null when n < 2. */
export const sampleVariance = (m: Moments): number | null => (m.n >= 2 ? Math.max(0, m.m2) / (m.n - 1) : null);
/** Sample standard deviation (n − 1); null when n < 2. */
export const sampleSd = (m: Moments): number | null => {
  const v = sampleVariance(m);
  return v === null ? null : Math.sqrt(v);
};
/** Population variance (n); only for the position-score-variance metric. Null when n < 1. */
export const populationVariance = (m: Moments): number | null => (m.n >= 1 ? Math.max(0, m.m2) / m.n : null);

export const mean = (values: readonly number[]): number | null => (values.length ? momentsOf(values).mean : null);

/** Median (average of the two middle values for even counts); null for no values. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** z = (value − mean) / sd; null when sd is null or 0. */
export const zScore = (value: number, centre: number, sd: number | null): number | null =>
  sd === null || !(sd > 0) ? null : (value - centre) / sd;
