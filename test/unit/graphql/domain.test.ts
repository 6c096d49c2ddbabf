import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from '../../../shared/adapters/firestore/audit-query';
import { validateReview, normaliseTags } from '../../../shared/domain/review';
import { domainOf, reachesThreshold, suggestionId, windowOf } from '../../../shared/domain/task-suggestions';
import { biasReportView, severityOf, toFilter, toSort } from '../../../shared/graphql/resolvers';
import { fromAnalyzerConfigDoc, toAnalyzerConfigDoc } from '../../../shared/schemas/analyzer-config-doc';
import { TenantAnalyzerConfig } from '../../../shared/schemas/analyzer-config';
import { isAppError } from '../../../shared/errors';

const keys = new Set(['gender', 'age', 'language']);

describe('review validation', () => {
  it('accepts a key, a list or {tags}', () => {
    expect(normaliseTags('gender').tags).toEqual(['gender']);
    expect(normaliseTags(['gender', 'age', 'gender']).tags).toEqual(['gender', 'age']);
    expect(normaliseTags({ tags: ['age'] }).tags).toEqual(['age']);
    expect(normaliseTags(null).tags).toBeNull();
    expect(normaliseTags(42).issues).toHaveLength(1);
    expect(normaliseTags([1, 2]).issues).toHaveLength(1);
  });
  it('refuses unknown keys, a verdict without review, and long notes', () => {
    const base = { humanReviewed: true, verdict: 'CONFIRMED' as const, humanBiasTag: ['gender'], reviewNotes: 'ok' };
    expect(validateReview(base, keys).issues).toEqual([]);
    expect(validateReview({ ...base, humanBiasTag: ['nope'] }, keys).issues[0]!.path).toBe('humanBiasTag');
    expect(validateReview({ ...base, humanReviewed: false }, keys).issues[0]!.path).toBe('verdict');
    expect(validateReview({ ...base, reviewNotes: 'x'.repeat(5001) }, keys).issues[0]!.path).toBe('reviewNotes');
  });
});

describe('task suggestion rules', () => {
  it('domain comes from query_context.domain, then operation, then general', () => {
    expect(domainOf({ query_context: { domain: 'Financial Forecasts' }, operation: 'x' })).toBe('financial_forecasts');
    expect(domainOf({ query_context: 'free text', operation: 'report-generation' })).toBe('report-generation');
    expect(domainOf({ query_context: null, operation: null })).toBe('general');
  });
  it('windows are fixed and aligned, so ids dedupe per window', () => {
    const a = windowOf('2026-11-20T10:00:00Z', 7);
    const b = windowOf('2026-11-22T23:59:59Z', 7);
    expect(Date.parse(a.end) - Date.parse(a.start)).toBe(7 * 86_400_000);
    expect(Date.parse('2026-11-20T10:00:00Z')).toBeGreaterThanOrEqual(Date.parse(a.start));
    expect(Date.parse('2026-11-20T10:00:00Z')).toBeLessThan(Date.parse(a.end));
    const same = a.start === b.start;
    expect(suggestionId('gender', 'hr', a.start) === suggestionId('gender', 'hr', b.start)).toBe(same);
    expect(reachesThreshold(2, 3)).toBe(false);
    expect(reachesThreshold(3, 3)).toBe(true);
  });
});

describe('resolver helpers', () => {
  it('a filter tenantId other than the token is FORBIDDEN, the same one is accepted', () => {
    expect(() => toFilter({ tenantId: 'b' }, 'a')).toThrow(expect.objectContaining({ code: 'FORBIDDEN' }));
    expect(toFilter({ tenantId: 'a', userId: 'u' }, 'a')).toMatchObject({ userId: 'u' });
    expect(() => toFilter({ minConfidence: 2 }, 'a')).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED' }));
  });
  it('maps sorts and severities', () => {
    expect(toSort(undefined)).toEqual({ field: 'log_timestamp', direction: 'desc' });
    expect(toSort({ field: 'SEVERITY', direction: 'ASC' })).toEqual({ field: 'bias_severity', direction: 'asc' });
    const tax = [{ bias_key: 'gender', severity_level: 4 }, { bias_key: 'language', severity_level: 2 }] as never;
    expect(severityOf(['language', 'gender', 'unknown'], tax)).toBe(4);
    expect(severityOf([], tax)).toBeNull();
  });
  it('cursors round-trip and are bound to their sort', () => {
    const c = encodeCursor({ f: 'bias_confidence_score', d: 'desc', v: 0.5, id: 'x' });
    expect(decodeCursor(c, { field: 'bias_confidence_score', direction: 'desc' })).toMatchObject({ v: 0.5, id: 'x' });
    let err: unknown;
    try {
      decodeCursor(c, { field: 'bias_confidence_score', direction: 'asc' });
    } catch (e) {
      err = e;
    }
    expect(isAppError(err) && err.code).toBe('VALIDATION_FAILED');
  });
  it('maps a partial bias report without inventing values', () => {
    const v = biasReportView({ confidence_tier: 'insufficient', reviewers: [] });
    expect(v).toMatchObject({ confidenceTier: 'insufficient', lengthCorrelation: null, positionBias: null, window: null, reviewers: [] });
  });
});

describe('analyzer config document codec', () => {
  it('stores nested rule groups Firestore-safely and decodes to the schema', () => {
    const cfg = TenantAnalyzerConfig.parse({ domain_rules: [{ id: 'r1', bias_type: ['gender'], description: 'd', all: [['a', 'b'], ['c']] }] });
    const doc = toAnalyzerConfigDoc(cfg);
    expect(JSON.stringify(doc)).not.toMatch(/\[\[/);
    expect(TenantAnalyzerConfig.parse(fromAnalyzerConfigDoc(doc))).toEqual(cfg);
    expect(fromAnalyzerConfigDoc(fromAnalyzerConfigDoc(doc))).toEqual(fromAnalyzerConfigDoc(doc));
    const plain = TenantAnalyzerConfig.parse({});
    expect(toAnalyzerConfigDoc(plain)).toEqual(JSON.parse(JSON.stringify(plain)));
  });
});
