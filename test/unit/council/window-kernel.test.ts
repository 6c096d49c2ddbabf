// The WebAssembly path of the window statistics (window-kernel.ts + wasm/window.wat) against the specification,
// windowStatsFromRecordsJs: the same statistics bit for bit (every double, −0 included) and in the same order, for
// seeded council data and for arbitrary records (interleaved sessions, missing positions, odd timestamps), under
// every kind of window query (decision 044).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildBiasReport,
  DEFAULT_REPORT_OPTIONS,
  windowStatsFromRecords,
  windowStatsFromRecordsJs,
  type MetricRow,
  type WindowQuery,
} from '../../../shared/domain/council';
import { mulberry32 } from '../../../shared/domain/stats';
import { generateRecords, MODELS } from '../../support/council-data';

/** Exact serialisation: −0, NaN and ±∞ kept apart (JSON would print 0 and null). */
const exact = (v: unknown) =>
  JSON.stringify(v, (_k, x: unknown) => (typeof x === 'number' && (Object.is(x, -0) || !Number.isFinite(x)) ? `num:${Object.is(x, -0) ? '-0' : x}` : x));

const expectSame = (rows: readonly MetricRow[], q: WindowQuery) => {
  const kernel = windowStatsFromRecords(rows, q, { kernel: 'wasm' });
  expect(exact(kernel)).toBe(exact(windowStatsFromRecordsJs(rows, q)));
  return kernel;
};

const query = (p: Partial<WindowQuery> = {}): WindowQuery => ({
  tenantId: null,
  now: new Date('2026-12-31T00:00:00Z'),
  days: null,
  maxSessions: null,
  modelId: null,
  configVersion: null,
  ...p,
});

const windowQuery = fc.record({
  tenantId: fc.option(fc.constantFrom('tA', 'tB', 'none')),
  days: fc.option(fc.integer({ min: 0, max: 90 })),
  maxSessions: fc.option(fc.integer({ min: 0, max: 120 })),
  modelId: fc.option(fc.constantFrom(...MODELS, 'm1', 'm2')),
  configVersion: fc.option(fc.constantFrom('0.3.0', '0.4.0', 'v1')),
  nowOffsetDays: fc.integer({ min: 0, max: 80 }),
});
type QueryParams = Omit<WindowQuery, 'now'> & { nowOffsetDays: number };
const toQuery = (p: QueryParams): WindowQuery =>
  query({ ...p, now: new Date(Date.parse('2026-11-01T00:00:00Z') + p.nowOffsetDays * 86_400_000) });

describe('window statistics through the WebAssembly kernel', () => {
  it('equal the JavaScript specification on the benchmark data, and so does the report', () => {
    const records = generateRecords({ seed: 42, sessions: 1000, tenantId: 'bench', scales: ['1-10', '0-1'], includeSelfVotes: true });
    for (const q of [query({ tenantId: 'bench' }), query({ tenantId: 'bench', maxSessions: 100 }), query({ days: 40, modelId: MODELS[1]! })]) {
      const stats = expectSame(records, q);
      const opts = { ...DEFAULT_REPORT_OPTIONS, generatedAt: q.now, tenantId: q.tenantId, query: q };
      expect(exact(buildBiasReport(stats, opts))).toBe(exact(buildBiasReport(windowStatsFromRecordsJs(records, q), opts)));
    }
  });

  it('equal the specification for seeded council data under any window query (property)', () => {
    const data = [
      ...generateRecords({ seed: 21, sessions: 60, tenantId: 'tA', scales: ['1-10', '0-1', '0-100'], includeSelfVotes: true, stepMs: 3_600_000 }),
      ...generateRecords({ seed: 22, sessions: 25, tenantId: 'tB', models: 4, includeSelfVotes: true, stepMs: 86_400_000 }),
      ...generateRecords({ seed: 23, sessions: 30, tenantId: 'tA', scales: ['1-5'], includeSelfVotes: false, stepMs: 7_200_000 }),
    ];
    fc.assert(
      fc.property(windowQuery, fc.boolean(), (p, shuffle) => {
        let rows: MetricRow[] = data;
        if (shuffle) {
          // Records of a session no longer next to each other (as rows from a warehouse may come).
          const rand = mulberry32(p.nowOffsetDays);
          rows = data.map((r) => [rand(), r] as const).sort((a, b) => a[0] - b[0]).map(([, r]) => r);
        }
        expectSame(rows, toQuery(p));
      }),
      { numRuns: 150, seed: 4401 },
    );
  });

  it('equal the specification for arbitrary records (property)', () => {
    const row = fc.record({
      tenant_id: fc.constantFrom('tA', 'tB'),
      session_id: fc.constantFrom('s1', 's2', 's3', 's4', 's5', 's6', 's7', 's8'),
      timestamp: fc.oneof(
        fc.integer({ min: 0, max: 60 * 24 }).map((m) => new Date(Date.parse('2026-11-01T00:00:00Z') + m * 3_600_000).toISOString()),
        fc.constantFrom('2026-11-10', 'not a date', '2026-11-05T10:00:00+02:00'),
      ),
      reviewer_id: fc.constantFrom('m1', 'm2', 'm3', 'r9'),
      model_id: fc.constantFrom('m1', 'm2', 'm3'),
      position: fc.option(fc.oneof(fc.integer({ min: 0, max: 6 }), fc.constant(1000))),
      response_length_chars: fc.oneof(fc.integer({ min: 0, max: 5000 }), fc.double({ min: 0, max: 1e6, noNaN: true })),
      score_normalized: fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(0, -0, 1, 0.5)),
      council_config_version: fc.constantFrom('v1', '0.3.0'),
    });
    fc.assert(
      fc.property(fc.array(row, { maxLength: 200 }), windowQuery, (rows, p) => {
        expectSame(rows, toQuery(p));
        expectSame(rows, query());
      }),
      { numRuns: 400, seed: 4402 },
    );
  });

  it('handles empty input and windows that keep nothing', () => {
    expectSame([], query());
    const records = generateRecords({ seed: 5, sessions: 10, tenantId: 'tA', includeSelfVotes: true });
    expectSame(records, query({ tenantId: 'tB' }));
    expectSame(records, query({ maxSessions: 0 }));
    expect(windowStatsFromRecords(records, query(), { kernel: 'js' })).toEqual(windowStatsFromRecordsJs(records, query()));
  });
});
