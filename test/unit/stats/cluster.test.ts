// Session-cluster-robust position inference (decision 043): known values from NumPy/SciPy, brute-force references
// written plainly here, and a seeded coverage simulation showing why the record-independent intervals were wrong.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildBiasReport, DEFAULT_REPORT_OPTIONS, meanInterval, windowStatsFromRecords, type MetricRow, type WindowQuery } from '../../../shared/domain/council';
import {
  choleskySolve,
  clusterEqualityTest,
  clusterMeanIntervals,
  fUpperTail,
  momentsOf,
  mulberry32,
  studentTQuantile,
} from '../../../shared/domain/stats';

type Obs = [session: string, position: number, score: number];

const query: WindowQuery = { tenantId: null, now: new Date('2026-11-22T00:00:00Z'), days: null, maxSessions: null, modelId: null, configVersion: null };

/** Peer records (reviewer ≠ model) for (session, position, score) triples; one model per position. */
function rowsOf(obs: readonly Obs[]): MetricRow[] {
  return obs.map(([session, position, score], i) => ({
    session_id: session,
    timestamp: '2026-11-20T10:00:00Z',
    reviewer_id: `reviewer-${i % 7}`,
    model_id: `model-${position}`,
    position,
    response_length_chars: 100 + ((i * 37) % 400),
    score_normalized: score,
    council_config_version: '1',
  }));
}

function report(obs: readonly Obs[]) {
  const stats = windowStatsFromRecords(rowsOf(obs), query);
  return { stats, report: buildBiasReport(stats, { ...DEFAULT_REPORT_OPTIONS, bootstrapResamples: 1, generatedAt: query.now, tenantId: null, query }) };
}

// Reference values: NumPy 2.4.6 / SciPy 1.17.1. Unbalanced: position-dummy least squares with the CR1 sandwich
// G/(G−1)·(XᵀX)⁻¹ Σ_g X_gᵀe_g e_gᵀX_g (XᵀX)⁻¹, t(G−1) intervals, Wald F·(G−q)/(q(G−1)) ~ F(q, G−q).
const UNBALANCED: Obs[] = [
  ['a', 0, 0.61], ['a', 0, 0.7], ['a', 1, 0.52], ['a', 2, 0.4], ['a', 2, 0.45],
  ['b', 0, 0.8], ['b', 1, 0.66], ['b', 1, 0.71], ['b', 2, 0.58],
  ['c', 0, 0.55], ['c', 1, 0.5], ['c', 2, 0.35], ['c', 2, 0.41], ['c', 2, 0.38],
  ['d', 0, 0.9], ['d', 0, 0.84], ['d', 1, 0.77],
  ['e', 1, 0.62], ['e', 2, 0.49], ['e', 2, 0.52],
  ['f', 0, 0.72], ['f', 1, 0.6], ['f', 2, 0.61],
  ['g', 0, 0.66], ['g', 0, 0.69], ['g', 1, 0.58], ['g', 1, 0.49], ['g', 2, 0.47],
];
// Balanced (6 sessions × 3 positions × 2 records): one-sample t intervals over session means and Hotelling's T².
const BALANCED: Obs[] = (
  [
    [0.52, 0.49, 0.49, 0.51, 0.51, 0.56], [0.61, 0.6, 0.69, 0.68, 0.7, 0.65], [0.53, 0.43, 0.5, 0.43, 0.49, 0.46],
    [0.41, 0.49, 0.51, 0.5, 0.41, 0.51], [0.5, 0.42, 0.5, 0.48, 0.51, 0.61], [0.42, 0.46, 0.42, 0.44, 0.48, 0.48],
  ] as number[][]
).flatMap((v, g) => v.map((score, j): Obs => [`s${g}`, j >> 1, score]));

describe('cluster-robust position intervals and test: known values', () => {
  it('unbalanced sessions match the NumPy CR1 sandwich', () => {
    const { report: r, stats } = report(UNBALANCED);
    expect(stats.positionClusters.sessions).toBe(7);
    const pb = r.position_bias;
    const means = [0.7188888888888889, 0.6055555555555556, 0.46599999999999997];
    const lower = [0.6049741157589207, 0.5170166599355599, 0.37710825793374986];
    const upper = [0.8328036620188571, 0.6940944511755514, 0.55489174206625];
    pb.by_position.forEach((p, i) => {
      expect(p.mean).toBeCloseTo(means[i]!, 12);
      expect(p.ci_lower!).toBeCloseTo(lower[i]!, 9);
      expect(p.ci_upper!).toBeCloseTo(upper[i]!, 9);
    });
    expect(pb.f_statistic!).toBeCloseTo(16.457756339590144, 8);
    expect(pb.p_value!).toBeCloseTo(0.006315135581994879, 9);
  });

  it('balanced sessions give the t interval over session means and Hotelling T²', () => {
    const pb = report(BALANCED).report.position_bias;
    const lower = [0.4260791172458229, 0.41917985401983177, 0.4463934262209201];
    const upper = [0.5539208827541771, 0.6058201459801681, 0.6152732404457466];
    pb.by_position.forEach((p, i) => {
      expect(p.ci_lower!).toBeCloseTo(lower[i]!, 9);
      expect(p.ci_upper!).toBeCloseTo(upper[i]!, 9);
    });
    expect(pb.f_statistic!).toBeCloseTo(2.7144268731308205, 8); // T² = 6.7860671828270505
    expect(pb.p_value!).toBeCloseTo(0.179970856708278, 9);
  });

  it('is undefined without enough sessions, and for differences without between-session variation', () => {
    const two = report(UNBALANCED.filter(([s]) => s === 'a' || s === 'b')).report.position_bias;
    expect(two.by_position[0]!.ci_lower).not.toBeNull(); // G = 2: t with 1 df
    expect(two.f_statistic).toBeNull(); // G ≤ q = 2
    const one = report(UNBALANCED.filter(([s]) => s === 'a')).report.position_bias;
    expect(one.by_position.every((p) => p.ci_lower === null)).toBe(true);
    // Every session scores position 1 exactly 0.1 above position 0: the difference has no variance.
    const shifted: Obs[] = ['a', 'b', 'c', 'd'].flatMap((s, g): Obs[] => [[s, 0, 0.3 + g / 10], [s, 1, 0.4 + g / 10]]);
    expect(report(shifted).report.position_bias.f_statistic).toBeNull();
  });

  it('treats a difference variance at rounding level as no variance (the SQL path sums the same window to exact zeros)', () => {
    // Two positions over three sessions whose residual sums are exact zeros in one summation order and ~1e-17 in another.
    const base = { keys: [0, 1], means: [0.7375, 0.6430555555555555], counts: [4, 4], clusters: 3 };
    const residue = [{ p: 0, q: 0, sum: 3e-33 }, { p: 0, q: 1, sum: -1e-33 }, { p: 1, q: 1, sum: 2e-33 }];
    expect(clusterEqualityTest({ ...base, cross: [] })).toBeNull();
    expect(clusterEqualityTest({ ...base, cross: residue })).toBeNull();
    // A real between-session spread of the difference still gives a test.
    const real = clusterEqualityTest({ ...base, cross: residue.map((c) => ({ ...c, sum: c.sum * 1e29 })) });
    expect(real).not.toBeNull();
    expect(real!.p).toBeGreaterThan(0);
  });

  it('Cholesky solve refuses matrices that are not positive definite', () => {
    expect(Array.from(choleskySolve([4, 2, 2, 3], [2, 1], 2)!)).toEqual([0.5, 0]);
    expect(choleskySolve([1, 2, 2, 1], [1, 1], 2)).toBeNull();
    expect(choleskySolve([0, 0, 0, 0], [1, 1], 2)).toBeNull();
  });
});

// ---- brute-force references (plain loops over the raw observations) ----

function gaussSolve(A: number[][], b: number[]): number[] {
  const n = b.length;
  const M = A.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let piv = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(M[r]![c]!) > Math.abs(M[piv]![c]!)) piv = r;
    [M[c], M[piv]] = [M[piv]!, M[c]!];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = M[r]![c]! / M[c]![c]!;
      for (let j = c; j <= n; j++) M[r]![j]! -= f * M[c]![j]!;
    }
  }
  return M.map((row, i) => row[n]! / row[i]!);
}

/** Sandwich from raw observations; Wald statistic on consecutive differences (a different contrast than the code). */
function bruteForce(obs: readonly Obs[]) {
  const positions = [...new Set(obs.map((o) => o[1]))].sort((a, b) => a - b);
  const sessions = [...new Set(obs.map((o) => o[0]))];
  const k = positions.length;
  const G = sessions.length;
  const N = positions.map((p) => obs.filter((o) => o[1] === p).length);
  const m = positions.map((p, i) => obs.filter((o) => o[1] === p).reduce((a, o) => a + o[2], 0) / N[i]!);
  const V = positions.map(() => positions.map(() => 0));
  for (const s of sessions) {
    const u = positions.map((p, i) => obs.filter((o) => o[0] === s && o[1] === p).reduce((a, o) => a + (o[2] - m[i]!), 0) / N[i]!);
    for (let i = 0; i < k; i++) for (let j = 0; j < k; j++) V[i]![j]! += (G / (G - 1)) * u[i]! * u[j]!;
  }
  const t = studentTQuantile(0.975, G - 1);
  const ci = m.map((mi, i) => [mi - t * Math.sqrt(V[i]![i]!), mi + t * Math.sqrt(V[i]![i]!)] as const);
  const q = k - 1;
  const d = Array.from({ length: q }, (_, i) => m[i + 1]! - m[i]!);
  const DV = Array.from({ length: q }, (_, i) =>
    Array.from({ length: q }, (_, j) => V[i + 1]![j + 1]! - V[i + 1]![j]! - V[i]![j + 1]! + V[i]![j]!),
  );
  const w = d.reduce((a, di, i) => a + di * gaussSolve(DV, d)[i]!, 0);
  const f = (w * (G - q)) / (q * (G - 1));
  return { ci, f, p: fUpperTail(f, q, G - q), G };
}

const scoreArb = fc.integer({ min: 0, max: 100 }).map((v) => v / 100);

describe('cluster-robust position inference equals plain references (property)', () => {
  it('balanced designs: t interval over session position means; F = Hotelling T²·(G−q)/(q(G−1))', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 5 }),
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 6, max: 20 }),
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        (k, per, G, seed) => {
          const rand = mulberry32(seed);
          const obs: Obs[] = [];
          for (let g = 0; g < G; g++) {
            const eff = rand() * 0.4;
            for (let p = 0; p < k; p++) for (let r = 0; r < per; r++) obs.push([`s${g}`, p, Math.round((0.3 + eff + 0.3 * rand()) * 100) / 100]);
          }
          const pb = report(obs).report.position_bias;
          const t = studentTQuantile(0.975, G - 1);
          // Session position means, then a plain one-sample t interval over the G sessions.
          const sm = Array.from({ length: G }, (_, g) =>
            Array.from({ length: k }, (_, p) => obs.filter((o) => o[0] === `s${g}` && o[1] === p).reduce((a, o) => a + o[2], 0) / per),
          );
          for (let p = 0; p < k; p++) {
            const col = momentsOf(sm.map((row) => row[p]!));
            const half = (t * Math.sqrt(col.m2 / (G - 1))) / Math.sqrt(G);
            expect(pb.by_position[p]!.ci_lower!).toBeCloseTo(col.mean - half, 9);
            expect(pb.by_position[p]!.ci_upper!).toBeCloseTo(col.mean + half, 9);
          }
          // Hotelling T² on the within-session differences from position 0.
          const q = k - 1;
          const D = sm.map((row) => row.slice(1).map((v) => v - row[0]!));
          const dbar = Array.from({ length: q }, (_, i) => D.reduce((a, r) => a + r[i]!, 0) / G);
          const S = Array.from({ length: q }, (_, i) =>
            Array.from({ length: q }, (_, j) => D.reduce((a, r) => a + (r[i]! - dbar[i]!) * (r[j]! - dbar[j]!), 0) / (G - 1)),
          );
          const x = gaussSolve(S, dbar);
          const T2 = G * dbar.reduce((a, v, i) => a + v * x[i]!, 0);
          if (!Number.isFinite(T2) || pb.f_statistic === null) return; // singular S: both sides undefined or ill-posed
          expect(pb.f_statistic).toBeCloseTo((T2 * (G - q)) / (q * (G - 1)), 6);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('unbalanced designs (sessions missing positions, uneven counts): the raw-data sandwich', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), scoreArb), { minLength: 1, maxLength: 9 }), { minLength: 6, maxLength: 25 }),
        (sessions) => {
          const obs: Obs[] = sessions.flatMap((cells, g) => cells.map(([p, y]): Obs => [`s${g}`, p, y]));
          const positions = new Set(obs.map((o) => o[1]));
          const ref = bruteForce(obs);
          const { report: r, stats } = report(obs);
          expect(stats.positionClusters.sessions).toBe(ref.G);
          r.position_bias.by_position.forEach((p, i) => {
            expect(p.ci_lower!).toBeCloseTo(ref.ci[i]![0], 9);
            expect(p.ci_upper!).toBeCloseTo(ref.ci[i]![1], 9);
          });
          if (positions.size >= 2 && r.position_bias.f_statistic !== null && Number.isFinite(ref.f) && ref.f < 1e6) {
            expect(r.position_bias.f_statistic / ref.f).toBeCloseTo(1, 6);
          }
        },
      ),
      { numRuns: 80 },
    );
  });

  it('does not depend on the order of sessions and records, or on position labels', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), (seed) => {
        const rand = mulberry32(seed);
        const obs: Obs[] = UNBALANCED.map(([s, p, y]) => [s, p, y]);
        const shuffled = [...obs].sort(() => rand() - 0.5);
        const relabelled = shuffled.map(([s, p, y]): Obs => [`x-${s}`, p * 3 + 2, y]);
        const a = report(obs).report.position_bias;
        const b = report(relabelled).report.position_bias;
        expect(b.f_statistic!).toBeCloseTo(a.f_statistic!, 9);
        b.by_position.forEach((p, i) => expect(p.ci_upper!).toBeCloseTo(a.by_position[i]!.ci_upper!, 12));
      }),
      { numRuns: 30 },
    );
  });
});

describe('why: records of one session are not independent (seeded simulation)', () => {
  // 30 sessions, 4 positions, 3 peer scores per position. Each (session, position) holds one candidate whose
  // quality all its reviewers see (sd 0.1), plus a session-wide shift (sd 0.1) and reviewer noise (sd 0.05).
  // No true position effect; the true mean of every position is 0.5.
  const normal = (rand: () => number) => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
  function simulate(reps: number, seed: number) {
    const rand = mulberry32(seed);
    let coverCluster = 0;
    let coverNaive = 0;
    let rejectCluster = 0;
    let rejectNaive = 0;
    for (let rep = 0; rep < reps; rep++) {
      const obs: Obs[] = [];
      for (let g = 0; g < 30; g++) {
        const shift = 0.1 * normal(rand);
        for (let p = 0; p < 4; p++) {
          const quality = 0.1 * normal(rand);
          for (let r = 0; r < 3; r++) obs.push([`s${g}`, p, 0.5 + shift + quality + 0.05 * normal(rand)]);
        }
      }
      const { report: rep0, stats } = report(obs);
      const pos0 = rep0.position_bias.by_position[0]!;
      if (pos0.ci_lower! <= 0.5 && 0.5 <= pos0.ci_upper!) coverCluster++;
      const naive = meanInterval(stats.positions[0]!.moments)!; // the record-independent t interval used before
      if (naive.lower <= 0.5 && 0.5 <= naive.upper) coverNaive++;
      if (rep0.position_bias.p_value! < 0.05) rejectCluster++;
      // One-way ANOVA over records (the test used before).
      const grand = momentsOf(obs.map((o) => o[2]));
      const between = stats.positions.reduce((a, p) => a + p.moments.n * (p.moments.mean - grand.mean) ** 2, 0);
      const within = stats.positions.reduce((a, p) => a + p.moments.m2, 0);
      const fNaive = between / 3 / (within / (grand.n - 4));
      if (fUpperTail(fNaive, 3, grand.n - 4) < 0.05) rejectNaive++;
    }
    return { coverCluster: coverCluster / reps, coverNaive: coverNaive / reps, rejectCluster: rejectCluster / reps, rejectNaive: rejectNaive / reps };
  }

  it('cluster intervals keep ~95% coverage and the test ~5% false positives; the record-level ones do not', () => {
    const s = simulate(400, 20261122);
    expect(s.coverCluster).toBeGreaterThan(0.92);
    expect(s.coverCluster).toBeLessThan(0.98);
    expect(s.rejectCluster).toBeLessThan(0.08);
    expect(s.coverNaive).toBeLessThan(0.8);
    expect(s.rejectNaive).toBeGreaterThan(0.1);
  });

  it('the test still detects a real first-position advantage', () => {
    const rand = mulberry32(99);
    const obs: Obs[] = [];
    for (let g = 0; g < 40; g++) {
      for (let p = 0; p < 4; p++) {
        const quality = 0.1 * normal(rand);
        for (let r = 0; r < 3; r++) obs.push([`s${g}`, p, 0.5 + (p === 0 ? 0.08 : 0) + quality + 0.05 * normal(rand)]);
      }
    }
    const pb = report(obs).report.position_bias;
    expect(pb.p_value!).toBeLessThan(0.05);
    expect(pb.max_difference!).toBeGreaterThan(0.05);
  });
});

describe('clusterMeanIntervals / clusterEqualityTest direct inputs', () => {
  it('treat missing cross pairs as zero and need G ≥ 2 (intervals) and G > k − 1 (test)', () => {
    const input = { keys: [0, 1], means: [0.5, 0.6], counts: [10, 10], clusters: 1, cross: [{ p: 0, q: 0, sum: 1 }] };
    expect(clusterMeanIntervals(input)).toEqual([null, null]);
    expect(clusterEqualityTest(input)).toBeNull();
    const five = { ...input, clusters: 5, cross: [{ p: 0, q: 0, sum: 0.4 }, { p: 1, q: 1, sum: 0.4 }] };
    const ci = clusterMeanIntervals(five);
    const se = Math.sqrt((5 / 4) * 0.4) / 10;
    expect(ci[0]!.se).toBeCloseTo(se, 14);
    expect(ci[1]!.upper).toBeCloseTo(0.6 + studentTQuantile(0.975, 4) * se, 12);
    const test = clusterEqualityTest(five)!;
    expect(test.f).toBeCloseTo((0.1 ** 2 / (2 * se * se)) * (4 / 4), 10); // q = 1: F = W·(G−1)/(G−1)
    expect([test.df1, test.df2]).toEqual([1, 4]);
  });
});
