// The SQL path (DuckDB, the same SQL text BigQuery runs) must give the same sufficient statistics, and therefore
// the same estimates, as the in-memory computation over the same records.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDbWarehouse } from '../../../shared/adapters/duckdb/warehouse';
import { buildBiasReport, DEFAULT_REPORT_OPTIONS, windowStatsFromRecords, type WindowQuery } from '../../../shared/domain/council';
import { generateRecords } from '../../support/council-data';
import { expectStatsClose } from '../../support/council-expect';
import { expectPositionClustersClose } from './expect-position-clusters';

const recordsA = generateRecords({ seed: 21, sessions: 80, tenantId: 'tA', scales: ['1-10', '0-1', '0-100'], includeSelfVotes: true, stepMs: 3_600_000 });
const recordsB = generateRecords({ seed: 22, sessions: 15, tenantId: 'tB', includeSelfVotes: true });

describe('DuckDB warehouse', () => {
  const wh = new DuckDbWarehouse(':memory:');
  beforeAll(async () => {
    expect((await wh.appendRecords([...recordsA, ...recordsB])).inserted).toBe(recordsA.length + recordsB.length);
  });
  afterAll(() => wh.close());

  it('appends idempotently by record id', async () => {
    expect((await wh.appendRecords(recordsA.slice(0, 50))).inserted).toBe(0);
    expect(await wh.listTenants()).toEqual(['tA', 'tB']);
  });

  it('SQL sufficient statistics equal the in-memory ones for any window and filter (property)', async () => {
    const all = [...recordsA, ...recordsB];
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          tenantId: fc.constantFrom('tA', 'tB'),
          days: fc.option(fc.integer({ min: 1, max: 30 })),
          maxSessions: fc.option(fc.integer({ min: 0, max: 100 })),
          modelId: fc.option(fc.constantFrom('openai/gpt-5', 'meta/llama-4')),
          configVersion: fc.option(fc.constantFrom('0.3.0', '0.4.0')),
          nowOffsetH: fc.integer({ min: 0, max: 24 * 20 }),
        }),
        async (p) => {
          const q: WindowQuery = {
            tenantId: p.tenantId,
            now: new Date(Date.parse('2026-11-01T00:00:00Z') + p.nowOffsetH * 3_600_000),
            days: p.days,
            maxSessions: p.maxSessions,
            modelId: p.modelId,
            configVersion: p.configVersion,
          };
          const sql = await wh.windowStats(q);
          const mem = windowStatsFromRecords(all, q);
          expectStatsClose(sql, mem);
          expectPositionClustersClose(sql, mem);
          const o = { ...DEFAULT_REPORT_OPTIONS, generatedAt: q.now, tenantId: q.tenantId, query: q, bootstrapResamples: 50 };
          const a = buildBiasReport(sql, o);
          const b = buildBiasReport(mem, o);
          expect(a.length_correlation.n).toBe(b.length_correlation.n);
          if (b.length_correlation.r !== null) expect(a.length_correlation.r).toBeCloseTo(b.length_correlation.r, 9);
          a.reviewers.forEach((r, i) => {
            if (b.reviewers[i]!.std !== null) expect(r.std).toBeCloseTo(b.reviewers[i]!.std!, 9);
          });
          if (b.position_bias.variance !== null) expect(a.position_bias.variance).toBeCloseTo(b.position_bias.variance, 12);
          expect(a.position_bias.f_statistic === null).toBe(b.position_bias.f_statistic === null);
          if (b.position_bias.f_statistic !== null) expect(a.position_bias.f_statistic! / b.position_bias.f_statistic).toBeCloseTo(1, 8);
          if (b.position_bias.p_value !== null) expect(a.position_bias.p_value).toBeCloseTo(b.position_bias.p_value, 9);
          a.position_bias.by_position.forEach((pos, i) => {
            const o = b.position_bias.by_position[i]!;
            expect(pos.ci_lower === null).toBe(o.ci_lower === null);
            if (o.ci_lower !== null) expect(pos.ci_lower).toBeCloseTo(o.ci_lower, 9);
            if (o.ci_upper !== null) expect(pos.ci_upper).toBeCloseTo(o.ci_upper, 9);
          });
        },
      ),
      { numRuns: 25 },
    );
  });

  it('stores and returns reports', async () => {
    const q: WindowQuery = { tenantId: 'tB', now: new Date('2026-11-22T00:00:00Z'), days: null, maxSessions: null, modelId: null, configVersion: null };
    const report = buildBiasReport(await wh.windowStats(q), { ...DEFAULT_REPORT_OPTIONS, generatedAt: q.now, tenantId: 'tB', query: q });
    await wh.writeReport('tB', report);
    await wh.writeReport('tB', report);
    expect(await wh.latestReportJson('tB')).toEqual(report);
  });
});
