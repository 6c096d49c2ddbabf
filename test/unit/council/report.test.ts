import { describe, expect, it } from 'vitest';
import { buildBiasReport, confidenceTier, DEFAULT_REPORT_OPTIONS, reportAlerts, windowStatsFromRecords, type WindowQuery } from '../../../shared/domain/council';
import { correlationPValue, fisherInterval, pearson } from '../../../shared/domain/stats';
import { BiasReportJson } from '../../../shared/schemas/council';
import { generateRecords } from '../../support/council-data';

const query = (over: Partial<WindowQuery> = {}): WindowQuery => ({
  tenantId: 't1',
  now: new Date('2026-11-22T00:00:00Z'),
  days: null,
  maxSessions: null,
  modelId: null,
  configVersion: null,
  ...over,
});
const opts = (q: WindowQuery) => ({ ...DEFAULT_REPORT_OPTIONS, generatedAt: q.now, tenantId: q.tenantId, query: q, bootstrapResamples: 300 });

describe('confidence tiers', () => {
  it('follow ADR-018 boundaries', () => {
    expect([0, 9, 10, 19, 20, 49, 50, 500].map(confidenceTier)).toEqual([
      'insufficient', 'insufficient', 'preliminary', 'preliminary', 'moderate', 'moderate', 'high', 'high',
    ]);
  });
});

describe('pooled report', () => {
  const records = generateRecords({ seed: 5, sessions: 60, tenantId: 't1', scales: ['1-10', '0-1', '1-5'], includeSelfVotes: true, lengthEffect: 3 });

  it('pools all peer (chars, normalised score) pairs: r, t-based p and Fisher CI over n pairs', () => {
    const q = query();
    const report = BiasReportJson.parse(buildBiasReport(windowStatsFromRecords(records, q), opts(q)));
    const peer = records.filter((r) => r.reviewer_id !== r.model_id);
    const r = pearson(peer.map((p) => p.response_length_chars), peer.map((p) => p.score_normalized))!;
    expect(report.length_correlation.n).toBe(peer.length);
    expect(report.length_correlation.r).toBeCloseTo(r, 10);
    expect(report.length_correlation.p_value).toBeCloseTo(correlationPValue(r, peer.length)!, 10);
    expect(report.length_correlation.ci_lower).toBeCloseTo(fisherInterval(r, peer.length)!.lower, 10);
    expect(report.length_correlation.bootstrap_ci_lower!).toBeLessThan(r);
    expect(report.length_correlation.bootstrap_ci_upper!).toBeGreaterThan(r);
    expect(report.window.sessions).toBe(60);
    expect(report.confidence_tier).toBe('high');
    expect(report.self_votes.count).toBeGreaterThan(0);
    expect(report.self_votes.inflation!).toBeGreaterThan(0); // generator adds +1 to self-votes
    expect(report.position_bias.by_position.map((p) => p.position)).toEqual([0, 1, 2, 3, 4]);
    const harsh = report.reviewers.find((x) => x.reviewer_id === 'openai/gpt-5')!;
    expect(harsh.harshness_z!).toBeLessThan(-1);
    expect(harsh.classification).toBe('harsh');
    expect(report.trends.length).toBeGreaterThan(0);
  });

  it('applies the session window, day window and filters', () => {
    const last10 = windowStatsFromRecords(records, query({ maxSessions: 10 }));
    expect(last10.sessions.map((s) => s.session_id).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `s-5-${50 + i}`).sort());
    const none = windowStatsFromRecords(records, query({ days: 1 }));
    expect(none.sessions).toHaveLength(0);
    const report = buildBiasReport(none, opts(query({ days: 1 })));
    expect(report.confidence_tier).toBe('insufficient');
    expect(report.length_correlation.r).toBeNull();
    const v4 = windowStatsFromRecords(records, query({ configVersion: '0.4.0' }));
    expect(v4.sessions).toHaveLength(20);
    const model = windowStatsFromRecords(records, query({ modelId: 'meta/llama-4' }));
    expect(model.positions.reduce((a, p) => a + p.moments.n, 0)).toBe(60 * 4);
  });

  it('flags an anomalous session and raises deduplicable alerts', () => {
    const base = generateRecords({ seed: 9, sessions: 40, tenantId: 't1' });
    const odd = base.map((r) => (r.session_id === 's-9-7' ? { ...r, score_normalized: 0 } : r));
    const q = query();
    const report = buildBiasReport(windowStatsFromRecords(odd, q), opts(q));
    expect(report.anomalies.map((a) => a.session_id)).toEqual(['s-9-7']);
    expect(report.anomalies[0]!.z).toBeLessThan(-2.5);
    const alerts = reportAlerts(report);
    expect(alerts.some((a) => a.kind === 'anomaly' && a.subject === 's-9-7')).toBe(true);
  });
});
