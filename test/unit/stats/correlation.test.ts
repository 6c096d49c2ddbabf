import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bivariateOf,
  clusterBootstrapCorrelation,
  combineAllBivariate,
  combineAllMoments,
  correlationPValue,
  fisherInterval,
  momentsOf,
  mulberry32,
  pearson,
  populationVariance,
  sampleVariance,
  type BivariateMoments,
} from '../../../shared/domain/stats';

// Reference values computed independently with SciPy 1.17.1 (scipy.stats.pearsonr) and NumPy.
describe('Pearson r and its t-based p-value', () => {
  it('matches scipy.stats.pearsonr on known data', () => {
    const x = [120, 340, 560, 800, 1020];
    const y = [5, 6, 6.5, 8, 9];
    const r = pearson(x, y)!;
    expect(r).toBeCloseTo(0.9917835165506645, 12);
    expect(correlationPValue(r, x.length)).toBeCloseTo(0.0008929494100096081, 12);
    const x2 = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5];
    const y2 = [2, 7, 1, 8, 2, 8, 1, 8, 2, 8, 4];
    expect(pearson(x2, y2)).toBeCloseTo(0.09422924859889797, 12);
    expect(correlationPValue(pearson(x2, y2)!, 11)).toBeCloseTo(0.7828721022183328, 10);
  });

  it('r = 0.9 with n = 5 gives p ≈ 0.0374 (t with 3 df), not the normal approximation', () => {
    expect(correlationPValue(0.9, 5)).toBeCloseTo(0.03738607346849862, 12);
    // The normal approximation the reference implementation used would give ~4.5e-5 here.
    expect(correlationPValue(0.9, 5)!).toBeGreaterThan(0.03);
  });

  it('is undefined for n < 3 or constant data', () => {
    expect(correlationPValue(0.5, 2)).toBeNull();
    expect(pearson([1, 2, 3], [4, 4, 4])).toBeNull();
    expect(correlationPValue(1, 4)).toBe(0);
  });

  it('Fisher-z interval with SE = 1/sqrt(n − 3)', () => {
    const a = fisherInterval(0.5, 30)!;
    expect(a.lower).toBeCloseTo(0.17043136511180015, 10);
    expect(a.upper).toBeCloseTo(0.7289585563883555, 10);
    const b = fisherInterval(-0.2, 200)!;
    expect(b.lower).toBeCloseTo(-0.32959533688304865, 10);
    expect(b.upper).toBeCloseTo(-0.06300732482978727, 10);
    expect(fisherInterval(0.5, 3)).toBeNull();
  });
});

const pairs = fc.array(
  fc.tuple(fc.integer({ min: 0, max: 20_000 }), fc.double({ min: 0, max: 1, noNaN: true })),
  { minLength: 0, maxLength: 40 },
);

describe('sufficient statistics', () => {
  it('combining moments of any partition equals moments of the whole (same r, variances)', () => {
    fc.assert(
      fc.property(fc.array(pairs, { minLength: 1, maxLength: 8 }), (parts) => {
        const all = parts.flat();
        const whole = bivariateOf(all.map((p) => p[0]), all.map((p) => p[1]));
        const combined = combineAllBivariate(parts.map((p) => bivariateOf(p.map((q) => q[0]), p.map((q) => q[1]))));
        expect(combined.n).toBe(whole.n);
        if (whole.n === 0) return;
        expect(combined.meanX).toBeCloseTo(whole.meanX, 6);
        expect(combined.m2y).toBeCloseTo(whole.m2y, 6);
        const r1 = pearson(all.map((p) => p[0]), all.map((p) => p[1]));
        const r2 = combined.m2x > 1e-9 && combined.m2y > 1e-12 ? combined.cxy / Math.sqrt(combined.m2x * combined.m2y) : null;
        if (r1 !== null && r2 !== null) expect(r2).toBeCloseTo(r1, 9);
        const ys = parts.map((p) => momentsOf(p.map((q) => q[1])));
        const uni = combineAllMoments(ys);
        if (whole.n >= 2) expect(sampleVariance(uni)!).toBeCloseTo(whole.m2y / (whole.n - 1), 9);
      }),
    );
  });

  it('sample and population variance follow their definitions (NumPy ddof=1 / ddof=0)', () => {
    const m = momentsOf([2, 4, 4, 4, 5, 5, 7, 9]);
    expect(populationVariance(m)).toBeCloseTo(4, 12); // np.var
    expect(sampleVariance(m)).toBeCloseTo(32 / 7, 12); // np.var(ddof=1)
    expect(sampleVariance(momentsOf([3]))).toBeNull();
  });
});

describe('session-cluster bootstrap', () => {
  const sessions = (seed: number, k: number, slope: number): BivariateMoments[] => {
    const rand = mulberry32(seed);
    return Array.from({ length: k }, () => {
      const xs = Array.from({ length: 12 }, () => 200 + rand() * 2000);
      const offset = rand() * 0.3;
      return bivariateOf(xs, xs.map((x) => offset + slope * (x / 2200) + rand() * 0.4));
    });
  };

  it('is reproducible for a seed and changes with the seed', () => {
    const s = sessions(7, 60, 0.3);
    const a = clusterBootstrapCorrelation(s, { resamples: 500, seed: 42 })!;
    const b = clusterBootstrapCorrelation(s, { resamples: 500, seed: 42 })!;
    const c = clusterBootstrapCorrelation(s, { resamples: 500, seed: 43 })!;
    expect(a).toEqual(b);
    expect(c.lower === a.lower && c.upper === a.upper).toBe(false);
  });

  it('brackets the pooled r and uses every replicate', () => {
    const s = sessions(11, 80, 0.3);
    const pooled = combineAllBivariate(s);
    const r = pooled.cxy / Math.sqrt(pooled.m2x * pooled.m2y);
    const boot = clusterBootstrapCorrelation(s, { resamples: 1000, seed: 1 })!;
    expect(boot.lower).toBeLessThan(r);
    expect(boot.upper).toBeGreaterThan(r);
    expect(boot.valid).toBe(1000);
  });

  it('needs at least two sessions', () => {
    expect(clusterBootstrapCorrelation(sessions(1, 1, 0.2), { resamples: 100, seed: 1 })).toBeNull();
  });
});
