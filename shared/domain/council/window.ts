// Sufficient statistics of one report window, and their in-memory computation from records. The warehouse
// adapters compute the same structure in SQL (shared/adapters/sql/council.ts); a property test checks they agree.
import { combineBivariate, combineMoments, EMPTY_BIVARIATE, EMPTY_MOMENTS, momentsOf, type BivariateMoments, type Moments } from '../stats';

export interface WindowQuery {
  /** Null only for single-tenant sources such as a local JSONL file. */
  tenantId: string | null;
  now: Date;
  /** Keep records with timestamp ≥ now − days; null = no time limit. */
  days: number | null;
  /** Keep the most recent N sessions (by first record time, ties by session id descending); null = all. */
  maxSessions: number | null;
  modelId: string | null;
  configVersion: string | null;
}

export interface SessionStat {
  session_id: string;
  /** Epoch ms of the session's first and last record. */
  first_ms: number;
  last_ms: number;
  /** (response_length_chars, score_normalized) moments over the session's peer (non-self) records. */
  xy: BivariateMoments;
}

export interface WindowStats {
  /** Sessions with at least one peer record, ordered by first_ms then session_id. */
  sessions: SessionStat[];
  reviewers: { reviewer_id: string; moments: Moments }[];
  positions: { position: number; moments: Moments }[];
  /** Moments of (self score − mean peer score of that model in that session), normalised scale. */
  selfVotes: Moments;
}

/** The fields of a stored record the statistics read. */
export interface MetricRow {
  tenant_id?: string | null;
  session_id: string;
  timestamp: string;
  reviewer_id: string;
  model_id: string;
  position: number | null;
  response_length_chars: number;
  score_normalized: number;
  council_config_version: string;
}

export const sinceMs = (q: WindowQuery) => (q.days === null ? null : q.now.getTime() - q.days * 86_400_000);

export function windowStatsFromRecords(rows: readonly MetricRow[], q: WindowQuery): WindowStats {
  const since = sinceMs(q);
  // Records of one session share a handful of timestamps: parse each distinct string once.
  const parsed = new Map<string, number>();
  const msOf = (t: string) => {
    let ms = parsed.get(t);
    if (ms === undefined) parsed.set(t, (ms = Date.parse(t)));
    return ms;
  };
  const filtered: { r: MetricRow; ms: number }[] = [];
  const firstSeen = new Map<string, number>();
  for (const r of rows) {
    if (q.tenantId !== null && r.tenant_id !== q.tenantId) continue;
    if (q.modelId !== null && r.model_id !== q.modelId) continue;
    if (q.configVersion !== null && r.council_config_version !== q.configVersion) continue;
    const ms = msOf(r.timestamp);
    if (since !== null && ms < since) continue;
    filtered.push({ r, ms });
    const seen = firstSeen.get(r.session_id);
    if (seen === undefined || ms < seen) firstSeen.set(r.session_id, ms);
  }
  let keep: Set<string> | null = null;
  if (q.maxSessions !== null) {
    const ranked = [...firstSeen.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? 1 : a[0] > b[0] ? -1 : 0));
    keep = new Set(ranked.slice(0, q.maxSessions).map(([s]) => s));
  }
  const inWindow = keep ? filtered.filter(({ r }) => keep.has(r.session_id)) : filtered;

  // Streaming (Welford) updates: no per-record arrays.
  type Uni = { n: number; mean: number; m2: number };
  type Bi = { first: number; last: number; n: number; mx: number; my: number; m2x: number; m2y: number; cxy: number };
  const addUni = (m: Map<string | number, Uni>, k: string | number, v: number) => {
    let u = m.get(k);
    if (!u) m.set(k, (u = { n: 0, mean: 0, m2: 0 }));
    u.n++;
    const d = v - u.mean;
    u.mean += d / u.n;
    u.m2 += d * (v - u.mean);
  };
  const sessions = new Map<string, Bi>();
  const reviewers = new Map<string | number, Uni>();
  const positions = new Map<string | number, Uni>();
  const selfScores = new Map<string | number, Uni>();
  const peerScores = new Map<string | number, Uni>();
  for (const { r, ms } of inWindow) {
    const key = `${r.session_id}\u0000${r.model_id}`;
    const y = r.score_normalized;
    if (r.reviewer_id === r.model_id) {
      addUni(selfScores, key, y);
      continue;
    }
    addUni(peerScores, key, y);
    let s = sessions.get(r.session_id);
    if (!s) sessions.set(r.session_id, (s = { first: ms, last: ms, n: 0, mx: 0, my: 0, m2x: 0, m2y: 0, cxy: 0 }));
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
    if (r.position !== null) addUni(positions, r.position, y);
  }
  const diffs: number[] = [];
  for (const [key, self] of selfScores) {
    const peers = peerScores.get(key);
    if (!peers?.n) continue;
    diffs.push(self.mean - peers.mean);
  }
  const copy = (u: Uni): Moments => ({ n: u.n, mean: u.mean, m2: u.m2 });
  return normalizeWindowStats({
    sessions: [...sessions.entries()].map(([session_id, s]) => ({
      session_id,
      first_ms: s.first,
      last_ms: s.last,
      xy: { n: s.n, meanX: s.mx, meanY: s.my, m2x: s.m2x, m2y: s.m2y, cxy: s.cxy },
    })),
    reviewers: [...reviewers.entries()].map(([reviewer_id, u]) => ({ reviewer_id: String(reviewer_id), moments: copy(u) })),
    positions: [...positions.entries()].map(([position, u]) => ({ position: Number(position), moments: copy(u) })),
    selfVotes: momentsOf(diffs),
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
  };
}

export const totalMoments = (s: WindowStats) => s.sessions.reduce((acc, x) => combineBivariate(acc, x.xy), EMPTY_BIVARIATE);
export const totalScoreMoments = (s: WindowStats) =>
  s.reviewers.reduce((acc, x) => combineMoments(acc, x.moments), EMPTY_MOMENTS);
