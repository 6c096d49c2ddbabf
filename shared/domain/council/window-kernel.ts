// Window statistics through the WebAssembly kernel (wasm/window.wat): the fast path of windowStatsFromRecords.
//
// One JavaScript pass reads each record once: the filters of the window query, the timestamp (each distinct
// string parsed once) and small integers for its strings: session (first-appearance order), (session, model)
// pair, reviewer and position. It writes them, with length, score and time, straight into the kernel's memory.
// The kernel then does all arithmetic in record order with the operations of windowStatsFromRecordsJs (window.ts),
// the specification, so the result is bit-for-bit the same (test/unit/council/window-kernel.test.ts). A cold
// process runs the kernel as Liftoff machine code at once instead of interpreting the accumulation loop while
// the optimising compiler works on it (decision 044).
//
// Each call instantiates the compiled module with a fresh memory sized for the call, so nothing is kept between
// calls and a large window's memory is released with the instance.
import type { ClusterCross, Moments } from '../stats';
import { compileWasm, ensureMemory, instantiateWasm, newWasmMemory } from '../wasm/instantiate';
import { WASM_BASE64 } from './wasm/window.wasm';
import type { MetricRow, SessionStat, WindowQuery, WindowStats } from './window-types';

/** Header of i32 fields at byte 0 (layout in window.wat), padded to 8 bytes. */
const HEADER_BYTES = 112;
const H = {
  n: 0, S: 1, K: 2, X: 3, Y: 4, MS: 5, SESS: 6, PAIR: 7, REV: 8, POS: 9, KEEP: 10, SACC: 11, PACC: 12, SELFORD: 13,
  RACC: 14, REVORD: 15, KACC: 16, POSORD: 17, SPOS: 18, CROSS: 19, TOG: 20, E: 21, SELF: 22,
  selfPairs: 23, reviewers: 24, positions: 25, clusters: 26,
} as const;
/** Above this much kernel memory the JavaScript implementation runs instead (32-bit offsets, and a sane bound). */
const MAX_BYTES = 0x4000_0000;

let compiled: object | null | undefined;

const align8 = (bytes: number) => Math.ceil(bytes / 8) * 8;
/** A value no record field is identical to (the "previous string" caches start with it). */
const NONE: unknown = Symbol('none');

interface Interned {
  /** Records written (those that pass the filters). */
  n: number;
  sessionIds: string[];
  /** First record time per session (for maxSessions). */
  firstMs: number[];
  pairs: number;
  participants: string[];
  positionOf: Map<number, number>;
}

interface RecordArrays {
  X: Float64Array;
  Y: Float64Array;
  MS: Float64Array;
  SESS: Int32Array;
  PAIR: Int32Array;
  REV: Int32Array;
  POS: Int32Array;
}

/** Pass 1 of windowStatsFromRecordsJs plus string interning: one loop, every output a typed array. */
function readRecords(rows: readonly MetricRow[], q: WindowQuery, since: number | null, out: RecordArrays): Interned {
  const { X, Y, MS, SESS, PAIR, REV, POS } = out;
  const total = rows.length;
  const tenantId = q.tenantId;
  const modelId = q.modelId;
  const configVersion = q.configVersion;
  const parsed = new Map<string, number>();
  const sessionOf = new Map<string, number>();
  const sessionIds: string[] = [];
  const firstMs: number[] = [];
  const sessionModels: number[][] = []; // per session: participant index of each model seen
  const sessionPairs: number[][] = []; // per session: the pair index of each of those models
  const participantOf = new Map<string, number>();
  const participants: string[] = [];
  const positionOf = new Map<number, number>();
  let pairs = 0;
  let n = 0;
  // Records of one session (and their timestamps), and a reviewer's scores within a session, usually follow each
  // other: remember the previous ones (this loop runs in the interpreter for much of a cold call, so every
  // operation per record counts).
  let lastTs = NONE;
  let lastMs = 0;
  let lastSession = NONE;
  let s = -1;
  let models: number[] = [];
  let pairIds: number[] = [];
  let lastReviewer = NONE;
  let lastRv = -1;
  for (let i = 0; i < total; i++) {
    const r = rows[i]!;
    if (tenantId !== null && r.tenant_id !== tenantId) continue;
    if (modelId !== null && r.model_id !== modelId) continue;
    if (configVersion !== null && r.council_config_version !== configVersion) continue;
    const ts = r.timestamp;
    if (ts !== lastTs) {
      let v = parsed.get(ts);
      if (v === undefined) parsed.set(ts, (v = Date.parse(ts)));
      lastTs = ts;
      lastMs = v;
    }
    const ms = lastMs;
    if (since !== null && ms < since) continue;
    const sessionId = r.session_id;
    if (sessionId !== lastSession) {
      let v = sessionOf.get(sessionId);
      if (v === undefined) {
        v = sessionIds.length;
        sessionOf.set(sessionId, v);
        sessionIds.push(sessionId);
        firstMs.push(ms);
        sessionModels.push([]);
        sessionPairs.push([]);
      }
      s = v;
      lastSession = sessionId;
      models = sessionModels[v]!;
      pairIds = sessionPairs[v]!;
    }
    if (ms < firstMs[s]!) firstMs[s] = ms;
    const model = r.model_id;
    let m = participantOf.get(model);
    if (m === undefined) {
      m = participants.length;
      participantOf.set(model, m);
      participants.push(model);
    }
    let j = models.indexOf(m);
    if (j < 0) {
      j = models.length;
      models.push(m);
      pairIds.push(pairs++);
    }
    const reviewer = r.reviewer_id;
    let rv = -1; // a self-vote
    if (reviewer !== model) {
      if (reviewer !== lastReviewer) {
        let v = participantOf.get(reviewer);
        if (v === undefined) {
          v = participants.length;
          participantOf.set(reviewer, v);
          participants.push(reviewer);
        }
        lastReviewer = reviewer;
        lastRv = v;
      }
      rv = lastRv;
    }
    const pos = r.position;
    let k = -1;
    if (pos !== null) {
      let v = positionOf.get(pos);
      if (v === undefined) positionOf.set(pos, (v = positionOf.size));
      k = v;
    }
    X[n] = r.response_length_chars;
    Y[n] = r.score_normalized;
    MS[n] = ms;
    SESS[n] = s;
    PAIR[n] = pairIds[j]!;
    REV[n] = rv;
    POS[n] = k;
    n++;
  }
  return { n, sessionIds, firstMs, pairs, participants, positionOf };
}

/** Session indices kept by maxSessions: most recent first record, ties by session id descending (as the JS). */
function keptSessions(q: WindowQuery, it: Interned, keep: Int32Array) {
  if (q.maxSessions === null) {
    keep.fill(1);
    return;
  }
  const ranked = it.sessionIds.map((id, i) => [id, it.firstMs[i]!, i] as const);
  ranked.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? 1 : a[0] > b[0] ? -1 : 0));
  for (const [, , i] of ranked.slice(0, q.maxSessions)) keep[i] = 1;
}

/**
 * The window statistics (not yet in canonical order: window.ts normalises them), or null when WebAssembly is
 * unavailable or the window needs more kernel memory than MAX_BYTES.
 */
export function windowStatsKernel(rows: readonly MetricRow[], q: WindowQuery, since: number | null): WindowStats | null {
  if (compiled === undefined) compiled = compileWasm(WASM_BASE64);
  if (compiled === null) return null;
  const total = rows.length;
  const at = { X: HEADER_BYTES, Y: HEADER_BYTES + 8 * total, MS: HEADER_BYTES + 16 * total, SESS: HEADER_BYTES + 24 * total };
  const recordsEnd = HEADER_BYTES + 40 * total;
  if (recordsEnd > MAX_BYTES) return null;
  const memory = newWasmMemory(recordsEnd);
  if (memory === null) return null;
  const exports = instantiateWasm(compiled, { env: { memory } });
  if (exports === null) return null;

  let buf = memory.buffer;
  const it = readRecords(rows, q, since, {
    X: new Float64Array(buf, at.X, total),
    Y: new Float64Array(buf, at.Y, total),
    MS: new Float64Array(buf, at.MS, total),
    SESS: new Int32Array(buf, at.SESS, total),
    PAIR: new Int32Array(buf, at.SESS + 4 * total, total),
    REV: new Int32Array(buf, at.SESS + 8 * total, total),
    POS: new Int32Array(buf, at.SESS + 12 * total, total),
  });

  const S = it.sessionIds.length;
  const P = it.participants.length;
  const K = it.positionOf.size;
  let o = align8(recordsEnd);
  const take = (bytes: number) => {
    const start = o;
    o = align8(o + bytes);
    return start;
  };
  const KEEP = take(4 * S);
  const SACC = take(64 * S);
  const PACC = take(32 * it.pairs);
  const SELFORD = take(4 * it.pairs);
  const RACC = take(24 * P);
  const REVORD = take(4 * P);
  const KACC = take(24 * K);
  const POSORD = take(4 * K);
  const SPOS = take(16 * S * K);
  const CROSS = take(8 * K * K);
  const TOG = take(4 * K * K);
  const E = take(8 * K);
  const SELF = take(24);
  if (o > MAX_BYTES || !ensureMemory(memory, o)) return null;
  buf = memory.buffer;

  const keep = new Int32Array(buf, KEEP, S);
  keptSessions(q, it, keep);
  const header = new Int32Array(buf, 0, HEADER_BYTES / 4);
  header[H.n] = it.n;
  header[H.S] = S;
  header[H.K] = K;
  header[H.X] = at.X;
  header[H.Y] = at.Y;
  header[H.MS] = at.MS;
  header[H.SESS] = at.SESS;
  header[H.PAIR] = at.SESS + 4 * total;
  header[H.REV] = at.SESS + 8 * total;
  header[H.POS] = at.SESS + 12 * total;
  header[H.KEEP] = KEEP;
  header[H.SACC] = SACC;
  header[H.PACC] = PACC;
  header[H.SELFORD] = SELFORD;
  header[H.RACC] = RACC;
  header[H.REVORD] = REVORD;
  header[H.KACC] = KACC;
  header[H.POSORD] = POSORD;
  header[H.SPOS] = SPOS;
  header[H.CROSS] = CROSS;
  header[H.TOG] = TOG;
  header[H.E] = E;
  header[H.SELF] = SELF;
  (exports.windowStats as (h: number) => void)(0);

  const f64 = new Float64Array(buf);
  const i32 = new Int32Array(buf);
  const sessions: SessionStat[] = [];
  for (let s = 0; s < S; s++) {
    const a = SACC / 8 + 8 * s;
    if (keep[s] === 0 || f64[a] === 0) continue; // outside maxSessions, or self-votes only
    sessions.push({
      session_id: it.sessionIds[s]!,
      first_ms: f64[a + 6]!,
      last_ms: f64[a + 7]!,
      xy: { n: f64[a]!, meanX: f64[a + 1]!, meanY: f64[a + 2]!, m2x: f64[a + 3]!, m2y: f64[a + 4]!, cxy: f64[a + 5]! },
    });
  }
  const moments = (a: number): Moments => ({ n: f64[a]!, mean: f64[a + 1]!, m2: f64[a + 2]! });
  const reviewers = Array.from({ length: header[H.reviewers]! }, (_, j) => {
    const r = i32[REVORD / 4 + j]!;
    return { reviewer_id: it.participants[r]!, moments: moments(RACC / 8 + 3 * r) };
  });
  const keyOf = [...it.positionOf.keys()];
  const positions = Array.from({ length: header[H.positions]! }, (_, j) => {
    const k = i32[POSORD / 4 + j]!;
    return { position: keyOf[k]!, moments: moments(KACC / 8 + 3 * k) };
  });
  // Cross-products in the JS's order: positions sorted, pairs p ≤ q; the kernel keeps a pair in the cell
  // (lower index, higher index) of its own position numbering.
  const sorted = positions.map((p) => p.position).sort((a, b) => a - b);
  const cross: ClusterCross[] = [];
  for (let a = 0; a < sorted.length; a++) {
    const ia = it.positionOf.get(sorted[a]!)!;
    for (let b = a; b < sorted.length; b++) {
      const ib = it.positionOf.get(sorted[b]!)!;
      const cell = Math.min(ia, ib) * K + Math.max(ia, ib);
      if (i32[TOG / 4 + cell]) cross.push({ p: sorted[a]!, q: sorted[b]!, sum: f64[CROSS / 8 + cell]! });
    }
  }
  return {
    sessions,
    reviewers,
    positions,
    selfVotes: moments(SELF / 8),
    positionClusters: { sessions: header[H.clusters]!, cross },
  };
}
