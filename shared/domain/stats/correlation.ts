// Pearson correlation with exact small-sample inference (Student's t, n − 2 df) and the Fisher-z interval.
import { bivariateOf, type BivariateMoments } from './moments';
import { normalQuantile, studentTTwoSidedP } from './special';

/** r from bivariate moments; null when n < 2 or either variable has no variance. */
export function pearsonFromMoments(m: BivariateMoments): number | null {
  if (m.n < 2 || !(m.m2x > 0) || !(m.m2y > 0)) return null;
  const r = m.cxy / Math.sqrt(m.m2x * m.m2y);
  return Math.max(-1, Math.min(1, r));
}

export const pearson = (xs: readonly number[], ys: readonly number[]) => pearsonFromMoments(bivariateOf(xs, ys));

/** Two-sided p-value of H0: ρ = 0 from t = r·sqrt((n−2)/(1−r²)) with n − 2 df. Null when n < 3. */
export function correlationPValue(r: number, n: number): number | null {
  if (n < 3 || !Number.isFinite(r)) return null;
  if (Math.abs(r) >= 1) return 0;
  const df = n - 2;
  const t = r * Math.sqrt(df / (1 - r * r));
  return studentTTwoSidedP(t, df);
}

export interface Interval {
  lower: number;
  upper: number;
}

/** Fisher-z confidence interval: atanh(r) ± z_{1−α/2}/sqrt(n − 3), back-transformed. Null when n < 4. */
export function fisherInterval(r: number, n: number, level = 0.95): Interval | null {
  if (n < 4 || !Number.isFinite(r)) return null;
  if (Math.abs(r) >= 1) return { lower: r, upper: r };
  const z = Math.atanh(r);
  const half = normalQuantile(1 - (1 - level) / 2) / Math.sqrt(n - 3);
  return { lower: Math.tanh(z - half), upper: Math.tanh(z + half) };
}
