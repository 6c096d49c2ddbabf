// Seeded session-cluster bootstrap: records of one session are not independent, so whole sessions are resampled.
import { pearsonFromMoments } from './correlation';
import type { BivariateMoments } from './moments';
import type { Interval } from './correlation';
import { WASM_BASE64 } from './wasm/bootstrap.wasm';
import { compileWasm, ensureMemory, instantiateWasm, type WasmMemory } from '../wasm/instantiate';

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
  /**
   * Which implementation draws the replicates: 'wasm' (the WebAssembly kernel, wasm/bootstrap.wat), 'js' (the
   * JavaScript loop, the specification) or, by default, the kernel where WebAssembly is available and the loop
   * otherwise. Both give bit-for-bit the same replicates (test/unit/stats/bootstrap-kernel.test.ts).
   */
  kernel?: 'wasm' | 'js';
}

export interface BootstrapResult extends Interval {
  /** Replicates with a defined r (a resample whose x or y has no variance is dropped). */
  valid: number;
}

/**
 * The replicate loop, the specification of the WebAssembly kernel. `D` holds per session the interleaved
 * [n, Σdx, Σdy, Σdx², Σdy², Σdxdy] of deviations from the global means (one cache line per draw). Each resample
 * draws k session indices from mulberry32(seed) (inlined: the same stream; index = floor(u · k) with u in [0, 1)),
 * sums their rows and reduces the sums to Pearson r. Writes the defined r, in resample order, to `out` and
 * returns how many there are.
 */
export function bootstrapReplicatesJs(D: Float64Array, k: number, resamples: number, seed: number, out: Float64Array): number {
  let state = seed >>> 0;
  let valid = 0;
  for (let b = 0; b < resamples; b++) {
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
    if (r !== null) out[valid++] = r;
  }
  return valid;
}

/** Where the session rows go and how the replicates are drawn. */
interface ReplicateKernel {
  /** Storage for the 6·k session rows (the caller fills every entry). */
  rows: Float64Array;
  /** The defined replicates of `rows`, in resample order (a view, valid until the kernel's next use). */
  draw(seed: number): Float64Array;
}

function jsKernel(k: number, resamples: number): ReplicateKernel {
  const rows = new Float64Array(6 * k);
  return {
    rows,
    draw: (seed) => {
      const out = new Float64Array(resamples);
      return out.subarray(0, bootstrapReplicatesJs(rows, k, resamples, seed, out));
    },
  };
}

type ReplicatesExport = (k: number, resamples: number, seed: number, out: number) => number;
/** The WebAssembly module, instantiated on first use; null where WebAssembly is unavailable. */
let wasm: { memory: WasmMemory; replicates: ReplicatesExport } | null | undefined;

/** The kernel over the module's memory (rows at byte 0, replicates after them); null when it cannot hold them. */
function wasmKernel(k: number, resamples: number): ReplicateKernel | null {
  if (wasm === undefined) {
    const module = compileWasm(WASM_BASE64);
    const exports = module === null ? null : instantiateWasm(module);
    wasm = exports === null ? null : { memory: exports.memory as WasmMemory, replicates: exports.replicates as ReplicatesExport };
  }
  const w = wasm;
  const out = 48 * k;
  // The kernel takes i32 counts and addresses memory with i32 offsets.
  if (w === null || !Number.isInteger(resamples) || out + 8 * resamples > 0x7fff_ffff || !ensureMemory(w.memory, out + 8 * resamples)) return null;
  return {
    rows: new Float64Array(w.memory.buffer, 0, 6 * k),
    draw: (seed) => new Float64Array(w.memory.buffer, out, w.replicates(k, resamples, seed, out)),
  };
}

function kernelFor(opts: BootstrapOptions, k: number): ReplicateKernel {
  if (opts.kernel === 'js') return jsKernel(k, opts.resamples);
  const w = wasmKernel(k, opts.resamples);
  if (w !== null) return w;
  if (opts.kernel === 'wasm') throw new Error('the WebAssembly bootstrap kernel is unavailable for this input');
  return jsKernel(k, opts.resamples);
}

/**
 * The defined bootstrap replicates of the pooled Pearson r, in resample order (a new array), resampling sessions
 * with replacement. Each session is reduced to sums of deviations from the global means (stable raw-sum form), so
 * one replicate costs O(sessions) additions. Null when fewer than 2 sessions, no resamples or no records.
 */
export function clusterBootstrapReplicates(sessions: readonly BivariateMoments[], opts: BootstrapOptions): Float64Array | null {
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
  const kernel = kernelFor(opts, k);
  const D = kernel.rows;
  for (let i = 0; i < k; i++) {
    const s = sessions[i]!;
    const dx = s.meanX - gx;
    const dy = s.meanY - gy;
    const o = 6 * i;
    D[o] = s.n;
    D[o + 1] = s.n * dx;
    D[o + 2] = s.n * dy;
    D[o + 3] = s.m2x + s.n * dx * dx;
    D[o + 4] = s.m2y + s.n * dy * dy;
    D[o + 5] = s.cxy + s.n * dx * dy;
  }
  return kernel.draw(opts.seed).slice();
}

/** Percentile CI of the pooled Pearson r over the session-cluster bootstrap replicates; null when none is defined. */
export function clusterBootstrapCorrelation(sessions: readonly BivariateMoments[], opts: BootstrapOptions): BootstrapResult | null {
  const rs = clusterBootstrapReplicates(sessions, opts);
  if (rs === null || rs.length === 0) return null;
  const sorted = rs.sort();
  const alpha = 1 - (opts.level ?? 0.95);
  return { lower: quantileSorted(sorted, alpha / 2), upper: quantileSorted(sorted, 1 - alpha / 2), valid: rs.length };
}
