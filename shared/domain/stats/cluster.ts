// Session-cluster-robust inference for group means (docs/decisions/043).
//
// Records of one council session share the session's query, candidates and reviewers, so they are not independent.
// For the means m_p = S_p / N_p of k groups (positions), each session g contributes the residual sums
// e_gp = s_gp − m_p·n_gp (s_gp, n_gp: sum and count of the session's records in group p; Σ_g e_gp = 0). The
// cluster-robust (CR1, sandwich) covariance of the means is
//
//     V_pq = G/(G−1) · Σ_g e_gp·e_gq / (N_p·N_q)
//
// with G the number of sessions. When every session has the same number of records in every group, V is exactly
// the sample covariance of the per-session group means divided by G, so the interval below is the one-sample t
// interval over sessions and the equality test is Hotelling's T² on within-session differences.
import { fUpperTail, studentTQuantile } from './special';

/** Σ_g e_gp·e_gq for one pair of groups p ≤ q. */
export interface ClusterCross {
  p: number;
  q: number;
  sum: number;
}

export interface ClusterMeansInput {
  /** Group keys, means m_p and record counts N_p, in the same order. */
  keys: readonly number[];
  means: readonly number[];
  counts: readonly number[];
  /** Number of clusters (sessions with at least one record in any group). */
  clusters: number;
  /** Cross-products of the cluster residuals; missing pairs are 0. */
  cross: readonly ClusterCross[];
}

/** k×k cluster-robust covariance of the group means (row-major), or null when G < 2. */
export function clusterCovariance(input: ClusterMeansInput): Float64Array | null {
  const k = input.keys.length;
  const G = input.clusters;
  if (G < 2 || k === 0) return null;
  const index = new Map(input.keys.map((key, i) => [key, i]));
  const V = new Float64Array(k * k);
  const scale = G / (G - 1);
  for (const c of input.cross) {
    const i = index.get(c.p);
    const j = index.get(c.q);
    if (i === undefined || j === undefined) continue;
    const v = (scale * c.sum) / (input.counts[i]! * input.counts[j]!);
    V[i * k + j] = v;
    V[j * k + i] = v;
  }
  return V;
}

export interface ClusterInterval {
  lower: number;
  upper: number;
  se: number;
}

/** m_p ± t(1−α/2, G−1)·sqrt(V_pp) for each group; null entries when G < 2. */
export function clusterMeanIntervals(input: ClusterMeansInput, level = 0.95): (ClusterInterval | null)[] {
  const V = clusterCovariance(input);
  const k = input.keys.length;
  if (V === null) return input.keys.map(() => null);
  const t = studentTQuantile(1 - (1 - level) / 2, input.clusters - 1);
  return input.means.map((m, i) => {
    const se = Math.sqrt(Math.max(0, V[i * k + i]!));
    return { lower: m - t * se, upper: m + t * se, se };
  });
}

export interface ClusterEqualityTest {
  /** F = W·(G − q)/(q·(G − 1)), W the cluster-robust Wald statistic of the q = k − 1 differences. */
  f: number;
  df1: number;
  df2: number;
  p: number;
}

/**
 * Test of equal group means with a cluster-robust Wald statistic on the differences m_p − m_0, referred to the
 * Hotelling T² F distribution F(q, G − q). Null when k < 2, G ≤ q, or the covariance of the differences is
 * singular (e.g. no between-session variation left).
 */
export function clusterEqualityTest(input: ClusterMeansInput): ClusterEqualityTest | null {
  const k = input.keys.length;
  const q = k - 1;
  const G = input.clusters;
  if (q < 1 || G <= q) return null;
  const V = clusterCovariance(input);
  if (V === null) return null;
  // Differences d_i = m_{i+1} − m_0 and their covariance C V Cᵀ.
  const d = new Float64Array(q);
  const S = new Float64Array(q * q);
  const v00 = V[0]!;
  for (let i = 0; i < q; i++) {
    d[i] = input.means[i + 1]! - input.means[0]!;
    for (let j = 0; j < q; j++) {
      S[i * q + j] = V[(i + 1) * k + (j + 1)]! - V[(i + 1) * k]! - V[j + 1]! + v00;
    }
  }
  // A difference whose standard error is below 1e-12 of the means' magnitude is rounding residue, not evidence:
  // the same window summed in another order (SQL vs memory) would give exact zeros and no test at all.
  let scale = 0;
  for (const m of input.means) scale = Math.max(scale, Math.abs(m));
  const x = choleskySolve(S, d, q, (scale * 1e-12) ** 2);
  if (x === null) return null;
  let w = 0;
  for (let i = 0; i < q; i++) w += d[i]! * x[i]!;
  const f = (w * (G - q)) / (q * (G - 1));
  return { f, df1: q, df2: G - q, p: fUpperTail(f, q, G - q) };
}

/** Solves A x = b for a symmetric positive definite n×n A (row-major); null when A is not numerically PD, i.e. a
 * pivot is not above 1e-12 of the largest diagonal entry or not above `minPivot`. */
export function choleskySolve(A: ArrayLike<number>, b: ArrayLike<number>, n: number, minPivot = 0): Float64Array | null {
  const L = new Float64Array(n * n);
  let maxDiag = 0;
  for (let i = 0; i < n; i++) maxDiag = Math.max(maxDiag, Math.abs(A[i * n + i]!));
  if (!(maxDiag > 0)) return null;
  const tol = Math.max(maxDiag * 1e-12, minPivot);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let s = A[i * n + j]!;
      for (let m = 0; m < j; m++) s -= L[i * n + m]! * L[j * n + m]!;
      if (i === j) {
        if (!(s > tol)) return null;
        L[i * n + i] = Math.sqrt(s);
      } else {
        L[i * n + j] = s / L[j * n + j]!;
      }
    }
  }
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = b[i]!;
    for (let m = 0; m < i; m++) s -= L[i * n + m]! * y[m]!;
    y[i] = s / L[i * n + i]!;
  }
  const x = new Float64Array(n);
  for (let i = n - 1; i >= 0; i--) {
    let s = y[i]!;
    for (let m = i + 1; m < n; m++) s -= L[m * n + i]! * x[m]!;
    x[i] = s / L[i * n + i]!;
  }
  return x;
}
