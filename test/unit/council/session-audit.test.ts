import { describe, expect, it } from 'vitest';
import { buildMetricRecords, derivePositionMapping, labelLetterIndex, runSessionAudit, scoresOutsideScale } from '../../../shared/domain/council';
import { correlationPValue, pearson, sampleSd } from '../../../shared/domain/stats';
import { CouncilSessionInput } from '../../../shared/schemas/council';

const session = (over: Partial<CouncilSessionInput> = {}): CouncilSessionInput =>
  CouncilSessionInput.parse({
    session_id: 'sess-1',
    stage1: [
      { model: 'm/a', response: 'x'.repeat(100) },
      { model: 'm/b', response: 'é'.repeat(300) }, // 300 characters, 600 UTF-8 bytes
      { model: 'm/c', response: 'y'.repeat(500) },
      { model: 'm/d', response: 'z'.repeat(900) },
    ],
    stage2: {
      'm/a': { 'm/a': 10, 'Response B': 5, 'Response C': 6, 'Response D': 8 },
      'm/b': { 'Response A': 4, 'm/b': 10, 'Response C': 7, 'Response D': 8 },
      'm/c': { 'Response A': 3, 'Response B': 6, 'Response C': 9, 'Response D': 9 },
      'm/d': { 'Response A': 4, 'Response B': 5, 'Response C': 6 },
    },
    label_to_model: { 'Response A': 'm/a', 'Response B': 'm/b', 'Response C': { model: 'm/c', display_index: 2 }, 'Response D': { model: 'm/d', display_index: 3 } },
    score_scale: '1-10',
    consent_level: 1,
    council_config_version: '0.3.0',
    ...over,
  });

describe('derivePositionMapping', () => {
  it('accepts enhanced and legacy forms, explicit display_index winning', () => {
    expect(derivePositionMapping({ 'Response A': 'x', 'Response B': 'y' })).toEqual({ x: 0, y: 1 });
    expect(derivePositionMapping({ 'Response A': { model: 'x', display_index: 3 }, 'Response B': { model: 'y', display_index: 0 } })).toEqual({ x: 3, y: 0 });
    expect(labelLetterIndex('Response AA')).toBe(26);
    expect(labelLetterIndex('weird')).toBeNull();
    expect(derivePositionMapping({ weird: 'x' })).toEqual({});
  });
});

describe('runSessionAudit', () => {
  it('excludes self-votes, measures length in characters and uses a t-based p-value', () => {
    const result = runSessionAudit(session());
    // peer means: a=(4+3+4)/3, b=(5+6+5)/3, c=(6+7+6)/3, d=(8+8+9)/3; lengths in characters
    const xs = [100, 300, 500, 900];
    const ys = [11 / 3, 16 / 3, 19 / 3, 25 / 3];
    const r = pearson(xs, ys)!;
    expect(result.length_score_correlation).toBeCloseTo(r, 5);
    expect(result.length_score_p_value).toBeCloseTo(correlationPValue(r, 4)!, 6);
    expect(result.length_n).toBe(4);
    expect(result.self_votes_excluded).toBe(3);
    // self inflation: a: 10 − 11/3, b: 10 − 16/3, c: 9 − 19/3
    expect(result.self_vote_inflation).toBeCloseTo((10 - 11 / 3 + 10 - 16 / 3 + 9 - 19 / 3) / 3, 10);
    expect(result.reviewer_counts['m/a']).toBe(3);
    expect(result.reviewer_score_sd['m/a']).toBeCloseTo(sampleSd({ n: 3, mean: 19 / 3, m2: (5 - 19 / 3) ** 2 + (6 - 19 / 3) ** 2 + (8 - 19 / 3) ** 2 })!, 10);
  });

  it('computes position variance as the population variance of position means', () => {
    const result = runSessionAudit(session());
    const means = [11 / 3, 16 / 3, 19 / 3, 25 / 3];
    const m = means.reduce((a, b) => a + b) / 4;
    expect(result.position_score_variance).toBeCloseTo(means.reduce((a, b) => a + (b - m) ** 2, 0) / 4, 5);
    expect(result.position_bias_detected).toBe(true);
    expect(result.position_means.map((p) => p.position)).toEqual([0, 1, 2, 3]);
  });

  it('with 4 points a large r is not automatically significant (no normal approximation)', () => {
    const result = runSessionAudit(
      session({
        stage2: { 'm/a': { 'm/b': 6, 'm/c': 5, 'm/d': 7 }, 'm/b': { 'm/a': 5, 'm/c': 5, 'm/d': 6 }, 'm/c': { 'm/a': 5, 'm/b': 6, 'm/d': 6 } },
      }),
    );
    expect(Math.abs(result.length_score_correlation!)).toBeGreaterThan(0.3);
    expect(result.length_score_p_value!).toBeGreaterThan(0.05);
    expect(result.length_bias_detected).toBe(false);
  });

  it('flags harsh and generous reviewers outside median ± 1 sample SD of reviewer means', () => {
    const result = runSessionAudit(
      session({
        stage2: {
          'm/a': { 'm/b': 2, 'm/c': 2, 'm/d': 2 },
          'm/b': { 'm/a': 6, 'm/c': 6, 'm/d': 6 },
          'm/c': { 'm/a': 6.5, 'm/b': 6.5, 'm/d': 6.5 },
          'm/d': { 'm/a': 7, 'm/b': 7, 'm/c': 7 },
        },
      }),
    );
    expect(result.harsh_reviewers).toEqual(['m/a']);
    expect(result.generous_reviewers).toEqual([]);
    expect(['medium', 'high']).toContain(result.overall_bias_risk);
  });
});

describe('buildMetricRecords', () => {
  it('consent 0 stores nothing; query_hash only at consent 4; no raw text in records', () => {
    expect(buildMetricRecords(session({ consent_level: 0 }), { tenantId: 't', timestamp: '2026-11-22T00:00:00Z', queryHash: 'a'.repeat(64) }).records).toEqual([]);
    const one = buildMetricRecords(session({ consent_level: 1, query: 'secret question' }), { tenantId: 't', timestamp: '2026-11-22T00:00:00Z', queryHash: 'a'.repeat(64) });
    expect(one.records.every((r) => r.query_hash === null)).toBe(true);
    expect(JSON.stringify(one.records)).not.toContain('secret question');
    const four = buildMetricRecords(session({ consent_level: 4 }), { tenantId: 't', timestamp: '2026-11-22T00:00:00Z', queryHash: 'a'.repeat(64) });
    expect(four.records.every((r) => r.query_hash === 'a'.repeat(64))).toBe(true);
  });

  it('one record per (session, model, reviewer) with characters, words, position and a normalised score', () => {
    const { records } = buildMetricRecords(session({ score_scale: '1-10' }), { tenantId: 't', timestamp: '2026-11-22T00:00:00Z', queryHash: null });
    expect(records).toHaveLength(15);
    expect(new Set(records.map((r) => r.record_id)).size).toBe(15);
    const b = records.find((r) => r.model_id === 'm/b' && r.reviewer_id === 'm/a')!;
    expect(b.response_length_chars).toBe(300);
    expect(b.response_length_words).toBe(1);
    expect(b.position).toBe(1);
    expect(b.score_normalized).toBeCloseTo((5 - 1) / 9, 12);
    expect(b.schema_version).toBe('1.1.0');
  });

  it('reports scores outside the declared scale', () => {
    expect(scoresOutsideScale(session({ score_scale: '0-1' })).length).toBeGreaterThan(0);
    expect(scoresOutsideScale(session())).toEqual([]);
  });
});
