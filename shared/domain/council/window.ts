// Sufficient statistics of one report window, and their in-memory computation from records. The warehouse
// adapters compute the same structure in SQL (shared/adapters/sql/council.ts); a property test checks they agree.
import { combineBivariate, combineMoments, EMPTY_BIVARIATE, EMPTY_MOMENTS, momentsOf, type ClusterCross } from '../stats';
import type { MetricRow, SessionStat, WindowQuery, WindowStats } from './window-types';
import { windowStatsKernel } from './window-kernel';

export type { MetricRow, SessionStat, WindowQuery, WindowStats } from './window-types';

/** Statistics of a window without records. */
export const emptyWindowStats = (): WindowStats => ({
  sessions: [],
  reviewers: [],
  positions: [],
  selfVotes: { n: 0, mean: 0, m2: 0 },
  positionClusters: { sessions: 0, cross: [] },
});

export const sinceMs = (q: WindowQuery) => (q.days === null ? null : q.now.getTime() - q.days * 86_400_000);

/** Per-session accumulator (streaming Welford updates; no per-record arrays). */
interface SessionAcc {
  first: number;
  last: number;
  n: number;
  mx: number;
  my: number;
  m2x: number;
  m2y: number;
  cxy: number;
  /** Self and peer score means per candidate model (for self-vote inflation). */
  models: Map<string, ModelAcc>;
  /** Peer records per position in this session: keys, counts and score sums (cluster residuals, decision 043). */
  posKeys: number[];
  posN: number[];
  posSum: number[];
}
interface ModelAcc {
  selfN: number;
  selfMean: number;
  peerN: number;
  peerMean: number;
}
interface Uni {
  n: number;
  mean: number;
  m2: number;
}

function addUni<K>(m: Map<K, Uni>, k: K, v: number) {
  let u = m.get(k);
  if (!u) m.set(k, (u = { n: 0, mean: 0, m2: 0 }));
  u.n++;
  const d = v - u.mean;
  u.mean += d / u.n;
  u.m2 += d * (v - u.mean);
}

/**
 * Window statistics from records in memory. By default the WebAssembly path (window-kernel.ts: one JavaScript
 * pass that filters the records and interns their strings, the arithmetic in a WebAssembly kernel), which gives
 * bit-for-bit the statistics of `windowStatsFromRecordsJs`; that JavaScript implementation is the specification
 * and the fallback where WebAssembly is unavailable or the window too large for the kernel's 32-bit memory.
 */
export function windowStatsFromRecords(rows: readonly MetricRow[], q: WindowQuery, opts: { kernel?: 'wasm' | 'js' } = {}): WindowStats {
  if (opts.kernel !== 'js') {
    const raw = windowStatsKernel(rows, q, sinceMs(q));
    if (raw !== null) return normalizeWindowStats(raw);
    if (opts.kernel === 'wasm') throw new Error('the WebAssembly window-statistics kernel is unavailable for this input');
  }
  return windowStatsFromRecordsJs(rows, q);
}

/** The specification of the window statistics: two passes over the records with per-session accumulators. */
export function windowStatsFromRecordsJs(rows: readonly MetricRow[], q: WindowQuery): WindowStats {
  const since = sinceMs(q);
  const total = rows.length;
  // Pass 1: filters and timestamps. Records of one session share a handful of timestamps: parse each distinct
  // string once. Typed arrays instead of a filtered copy of the records.
  const parsed = new Map<string, number>();
  const msOf = new Float64Array(total);
  const passes = new Uint8Array(total);
  const firstSeen = q.maxSessions === null ? null : new Map<string, number>();
  for (let i = 0; i < total; i++) {
    const r = rows[i]!;
    if (q.tenantId !== null && r.tenant_id !== q.tenantId) continue;
    if (q.modelId !== null && r.model_id !== q.modelId) continue;
    if (q.configVersion !== null && r.council_config_version !== q.configVersion) continue;
    let ms = parsed.get(r.timestamp);
    if (ms === undefined) parsed.set(r.timestamp, (ms = Date.parse(r.timestamp)));
    if (since !== null && ms < since) continue;
    msOf[i] = ms;
    passes[i] = 1;
    if (firstSeen !== null) {
      const seen = firstSeen.get(r.session_id);
      if (seen === undefined || ms < seen) firstSeen.set(r.session_id, ms);
    }
  }
  let keep: Set<string> | null = null;
  if (firstSeen !== null) {
    const ranked = [...firstSeen.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? 1 : a[0] > b[0] ? -1 : 0));
    keep = new Set(ranked.slice(0, q.maxSessions!).map(([s]) => s));
  }

  // Pass 2: accumulate the window's records in input order.
  const sessions = new Map<string, SessionAcc>();
  const reviewers = new Map<string, Uni>();
  const positions = new Map<number, Uni>();
  const selfOrder: ModelAcc[] = []; // (session, model) pairs in the order of their first self-vote
  for (let i = 0; i < total; i++) {
    if (passes[i] === 0) continue;
    const r = rows[i]!;
    if (keep !== null && !keep.has(r.session_id)) continue;
    let s = sessions.get(r.session_id);
    if (!s) {
      s = { first: Infinity, last: -Infinity, n: 0, mx: 0, my: 0, m2x: 0, m2y: 0, cxy: 0, models: new Map(), posKeys: [], posN: [], posSum: [] };
      sessions.set(r.session_id, s);
    }
    let m = s.models.get(r.model_id);
    if (!m) s.models.set(r.model_id, (m = { selfN: 0, selfMean: 0, peerN: 0, peerMean: 0 }));
    const y = r.score_normalized;
    if (r.reviewer_id === r.model_id) {
      if (m.selfN === 0) selfOrder.push(m);
      m.selfN++;
      m.selfMean += (y - m.selfMean) / m.selfN;
      continue;
    }
    m.peerN++;
    m.peerMean += (y - m.peerMean) / m.peerN;
    const ms = msOf[i]!;
    if (ms < s.first) s.first = ms;
    if (ms > s.last) s.last = ms;
    const x = r.response_length_chars;
    s.n++;
    const dx = x - s.mx;
    const dy = y - s.my;
    s.mx += dx / s.n;
    s.my += dy / s.n;
    s.m2x += dx * (x - s.mx);
    s.m2y += dy * (y - s.my);
    s.cxy += dx * (y - s.my);
    addUni(reviewers, r.reviewer_id, y);
    const pos = r.position;
    if (pos !== null) {
      addUni(positions, pos, y);
      const j = s.posKeys.indexOf(pos);
      if (j < 0) {
        s.posKeys.push(pos);
        s.posN.push(1);
        s.posSum.push(y);
      } else {
        s.posN[j]!++;
        s.posSum[j]! += y;
      }
    }
  }

  const diffs: number[] = [];
  for (const m of selfOrder) if (m.peerN > 0) diffs.push(m.selfMean - m.peerMean);

  // Cluster residual cross-products Σ_g e_gp·e_gq, e_gp = s_gp − n_gp·ȳ_p, over sessions with positioned records.
  const posKeys = [...positions.keys()].sort((a, b) => a - b);
  const k = posKeys.length;
  const posIndex = new Map(posKeys.map((p, i) => [p, i]));
  const posMean = posKeys.map((p) => positions.get(p)!.mean);
  const cross = new Float64Array(k * k);
  const together = new Uint8Array(k * k); // pairs of positions seen in one session (the SQL self-join's rows)
  const idx: number[] = [];
  const e: number[] = [];
  let clusters = 0;
  for (const s of sessions.values()) {
    const c = s.posKeys.length;
    if (c === 0) continue;
    clusters++;
    for (let j = 0; j < c; j++) {
      const i = posIndex.get(s.posKeys[j]!)!;
      idx[j] = i;
      e[j] = s.posSum[j]! - s.posN[j]! * posMean[i]!;
    }
    for (let a = 0; a < c; a++) {
      for (let b = 0; b < c; b++) {
        if (idx[a]! > idx[b]!) continue;
        const cell = idx[a]! * k + idx[b]!;
        cross[cell]! += e[a]! * e[b]!;
        together[cell] = 1;
      }
    }
  }
  const crossList: ClusterCross[] = [];
  for (let a = 0; a < k; a++) {
    for (let b = a; b < k; b++) if (together[a * k + b]) crossList.push({ p: posKeys[a]!, q: posKeys[b]!, sum: cross[a * k + b]! });
  }

  const out: SessionStat[] = [];
  for (const [session_id, s] of sessions) {
    if (s.n === 0) continue; // self-votes only
    out.push({ session_id, first_ms: s.first, last_ms: s.last, xy: { n: s.n, meanX: s.mx, meanY: s.my, m2x: s.m2x, m2y: s.m2y, cxy: s.cxy } });
  }
  return normalizeWindowStats({
    sessions: out,
    reviewers: [...reviewers.entries()].map(([reviewer_id, u]) => ({ reviewer_id, moments: { n: u.n, mean: u.mean, m2: u.m2 } })),
    positions: [...positions.entries()].map(([position, u]) => ({ position, moments: { n: u.n, mean: u.mean, m2: u.m2 } })),
    selfVotes: momentsOf(diffs),
    positionClusters: { sessions: clusters, cross: crossList },
  });
}

/** Canonical ordering, so stats from SQL and from memory compare equal. */
export function normalizeWindowStats(s: WindowStats): WindowStats {
  const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return {
    sessions: [...s.sessions].sort((a, b) => a.first_ms - b.first_ms || byId(a.session_id, b.session_id)),
    reviewers: [...s.reviewers].sort((a, b) => byId(a.reviewer_id, b.reviewer_id)),
    positions: [...s.positions].sort((a, b) => a.position - b.position),
    selfVotes: s.selfVotes,
    positionClusters: {
      sessions: s.positionClusters.sessions,
      cross: [...s.positionClusters.cross].sort((a, b) => a.p - b.p || a.q - b.q),
    },
  };
}

export const totalMoments = (s: WindowStats) => s.sessions.reduce((acc, x) => combineBivariate(acc, x.xy), EMPTY_BIVARIATE);
export const totalScoreMoments = (s: WindowStats) =>
  s.reviewers.reduce((acc, x) => combineMoments(acc, x.moments), EMPTY_MOMENTS);
