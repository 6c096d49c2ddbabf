// The WebAssembly bootstrap kernel (shared/domain/stats/wasm/bootstrap.wat) against its specification, the
// JavaScript replicate loop: bit-for-bit the same replicates, in the same order, for seeded random inputs; and the
// committed bytes are what wabt assembles from the committed source (decision 044).
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assembleWat, wasmModuleSource, watFiles } from '../../../scripts/lib/wat';
import {
  bivariateOf,
  clusterBootstrapCorrelation,
  clusterBootstrapReplicates,
  mulberry32,
  type BivariateMoments,
} from '../../../shared/domain/stats';

const sameBits = (a: Float64Array | null, b: Float64Array | null) => {
  expect(a === null).toBe(b === null);
  if (a === null || b === null) return;
  expect(a.length).toBe(b.length);
  // Object.is per replicate: the same double (−0 differs from 0); NaN, from overflowing inputs only, equals NaN.
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) expect([i, a[i]]).toEqual([i, b[i]]);
};

const sessionsOf = (seed: number, k: number, slope: number, records = 12): BivariateMoments[] => {
  const rand = mulberry32(seed);
  return Array.from({ length: k }, () => {
    const xs = Array.from({ length: records }, () => 200 + rand() * 2000);
    const offset = rand() * 0.3;
    return bivariateOf(xs, xs.map((x) => offset + slope * (x / 2200) + rand() * 0.4));
  });
};

describe('WebAssembly bootstrap kernel', () => {
  it('the committed bytes are the assembled .wat sources', async () => {
    const files = watFiles();
    expect(files.length).toBeGreaterThan(0);
    for (const { wat, ts } of files) {
      const bytes = await assembleWat(wat);
      expect(readFileSync(ts, 'utf8'), `${ts} is stale: run npx tsx scripts/build-wasm.ts`).toBe(wasmModuleSource(wat.split('/').at(-1)!, bytes));
    }
  });

  it('gives the replicates of the JavaScript loop, bit for bit, on seeded sessions', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 0xffff_ffff }),
        fc.integer({ min: 2, max: 120 }),
        fc.integer({ min: 1, max: 150 }),
        fc.integer({ min: 1, max: 30 }),
        fc.double({ min: -2, max: 2, noNaN: true }),
        fc.integer({ min: 0, max: 1000 }),
        (seed, k, resamples, records, slope, dataSeed) => {
          const s = sessionsOf(dataSeed, k, slope, records);
          sameBits(clusterBootstrapReplicates(s, { resamples, seed, kernel: 'wasm' }), clusterBootstrapReplicates(s, { resamples, seed, kernel: 'js' }));
        },
      ),
      { numRuns: 300, seed: 44 },
    );
  });

  it('matches on arbitrary moments, including degenerate sessions (no variance, one record, huge values)', () => {
    const moments = fc.record({
      n: fc.integer({ min: 0, max: 50 }),
      meanX: fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(0), fc.double({ min: 0, max: 5000, noNaN: true })),
      meanY: fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(0.5), fc.double({ min: 0, max: 1, noNaN: true })),
      m2x: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 1e12, noNaN: true })),
      m2y: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 10, noNaN: true })),
      cxy: fc.double({ min: -1e6, max: 1e6, noNaN: true }),
    });
    fc.assert(
      fc.property(fc.array(moments, { minLength: 2, maxLength: 40 }), fc.integer(), fc.integer({ min: 1, max: 60 }), (s, seed, resamples) => {
        sameBits(clusterBootstrapReplicates(s, { resamples, seed, kernel: 'wasm' }), clusterBootstrapReplicates(s, { resamples, seed, kernel: 'js' }));
      }),
      { numRuns: 500, seed: 45 },
    );
  });

  it('matches at the report scale (1,000 sessions × 1,000 resamples) and for a larger window after a smaller one', () => {
    for (const [k, resamples, seed] of [
      [1000, 1000, 20251217],
      [37, 5, 1],
      [5003, 200, 7],
      [64, 1000, 0xffff_ffff],
    ] as const) {
      const s = sessionsOf(k, k, 0.3);
      sameBits(clusterBootstrapReplicates(s, { resamples, seed, kernel: 'wasm' }), clusterBootstrapReplicates(s, { resamples, seed, kernel: 'js' }));
    }
  });

  it('keeps the confidence bounds of the previous implementation', () => {
    // Values of the JavaScript-only implementation before the kernel (same seeds, same data).
    expect(clusterBootstrapCorrelation(sessionsOf(11, 80, 0.3), { resamples: 1000, seed: 1 })).toEqual({
      lower: 0.45152357958257994,
      upper: 0.5422833713047538,
      valid: 1000,
    });
    expect(clusterBootstrapCorrelation(sessionsOf(5, 501, 0.1), { resamples: 999, seed: 20251217 })).toEqual({
      lower: 0.1581237419390328,
      upper: 0.21197597160544238,
      valid: 999,
    });
    for (const kernel of ['wasm', 'js'] as const) {
      expect(clusterBootstrapCorrelation(sessionsOf(11, 80, 0.3), { resamples: 1000, seed: 1, kernel })?.lower).toBe(0.45152357958257994);
    }
  });
});
