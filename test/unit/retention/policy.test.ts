import { describe, expect, it } from 'vitest';
import { newAuditRecord } from '../../../shared/domain/audit/record';
import {
  ALL_TYPES,
  DAY_MS,
  NO_TYPE,
  REMOVED_FIELDS,
  anonymizeRecord,
  classify,
  cutoffs,
  mergeRollups,
  pseudonymizeUserId,
  resolvePolicy,
  rollupRows,
} from '../../../shared/domain/retention';
import { LlmInteractionInput } from '../../../shared/schemas/interaction';

const NOW = new Date('2026-11-22T10:30:00.000Z');
const ago = (days: number) => new Date(NOW.getTime() - days * DAY_MS).toISOString();
const defaults = resolvePolicy(null);

function record(createdAt: string, extra: Partial<LlmInteractionInput> = {}) {
  const input = LlmInteractionInput.parse({
    original_query: 'Should we hire Jane Roe (jane@example.com)?',
    llm_response: 'Hire the young energetic candidate.',
    llm_provider: 'openai',
    llm_model: 'gpt-x',
    user_id: 'user-42',
    user_email: 'jane@example.com',
    query_context: 'free text about Jane',
    prompt_variables: { name: 'Jane' },
    error_message: 'none',
    ...extra,
  });
  return newAuditRecord(input, { id: 'a1', tenantId: 'tenant-1', traceId: '0'.repeat(32), now: createdAt });
}

describe('retention policy', () => {
  it('defaults to FR-BIAS-4.7: anonymise after 180 days, purge after 365', () => {
    expect(defaults).toEqual({ anonymize_after_days: 180, purge_after_days: 365, enabled: true });
  });

  it('rejects a policy that would purge before anonymising, and unknown fields', () => {
    expect(() => resolvePolicy({ anonymize_after_days: 400, purge_after_days: 365 })).toThrow(/smaller than purge_after_days/);
    expect(() => resolvePolicy({ anonymise_after: 10 })).toThrow();
    expect(resolvePolicy({ anonymize_after_days: 30 }).purge_after_days).toBe(365);
  });

  it('classifies records at 179/181/364/366 days as keep/anonymize/anonymize/purge', () => {
    const at = (d: number) => classify({ created_at: ago(d), anonymized_at: null }, defaults, NOW);
    expect([179, 181, 364, 366].map(at)).toEqual(['keep', 'anonymize', 'anonymize', 'purge']);
  });

  it('purges whole UTC days: a record is purged between 365 and 366 days of age, never before', () => {
    for (let minutes = 0; minutes < 24 * 60; minutes += 37) {
      const now = new Date(NOW.getTime() + minutes * 60_000);
      const age = (d: number) => classify({ created_at: new Date(now.getTime() - d * DAY_MS).toISOString(), anonymized_at: null }, defaults, now);
      expect(age(364.99)).not.toBe('purge');
      expect(age(366)).toBe('purge');
    }
    const c = cutoffs(defaults, NOW);
    expect(c.purgeBefore).toBe('2025-11-22T00:00:00.000Z');
    expect(c.anonymizeBefore).toBe(ago(180));
  });

  it('does not re-anonymise an anonymised record but still purges it', () => {
    expect(classify({ created_at: ago(200), anonymized_at: ago(10) }, defaults, NOW)).toBe('keep');
    expect(classify({ created_at: ago(400), anonymized_at: ago(10) }, defaults, NOW)).toBe('purge');
  });
});

describe('anonymisation transform', () => {
  it('removes free text and personal fields, hashes the user id, keeps hashes, model, bias fields and verdicts', () => {
    const r = {
      ...record(ago(200)),
      bias_detected: true,
      bias_type: ['ageism'],
      bias_score: { ageism_score: 0.8 },
      mitigation_action: { type: 'REPHRASE_RESPONSE', details: '"young" → "motivated"' },
      bias_report_summary: { findings: [{ detector: 'lexicon', bias_type: ['ageism'], score: 0.8, explanation: 'quoted "young"', spans: [{ start: 9, end: 14, text: 'young' }] }] },
      review_verdict: 'CONFIRMED' as const,
      review_notes: 'Jane called about this',
      human_reviewed: true,
    };
    const a = anonymizeRecord(r, { secret: 'k'.repeat(32), at: NOW.toISOString() });
    for (const f of REMOVED_FIELDS) expect(['', null]).toContain(a[f]);
    expect(a.user_id).toMatch(/^anon:[0-9a-f]{64}$/);
    expect(JSON.stringify(a)).not.toMatch(/Jane|jane@example|young|user-42/);
    expect(a).toMatchObject({
      prompt_hash: r.prompt_hash,
      output_hash: r.output_hash,
      llm_model: 'gpt-x',
      bias_detected: true,
      bias_type: ['ageism'],
      bias_score: { ageism_score: 0.8 },
      review_verdict: 'CONFIRMED',
      human_reviewed: true,
      anonymized_at: NOW.toISOString(),
    });
    expect(a.mitigation_action).toEqual({ type: 'REPHRASE_RESPONSE' });
    expect(a.bias_report_summary).toEqual({ findings: [{ detector: 'lexicon', bias_type: ['ageism'], score: 0.8, spans: [{ start: 9, end: 14 }] }] });
  });

  it('pseudonymises per tenant and key, stably, and leaves an already hashed id alone', () => {
    const h = pseudonymizeUserId('secret-one-1234567', 't1', 'u');
    expect(pseudonymizeUserId('secret-one-1234567', 't1', 'u')).toBe(h);
    expect(pseudonymizeUserId('secret-two-1234567', 't1', 'u')).not.toBe(h);
    expect(pseudonymizeUserId('secret-one-1234567', 't2', 'u')).not.toBe(h);
    expect(pseudonymizeUserId('secret-one-1234567', 't1', h)).toBe(h);
  });
});

describe('daily roll-up', () => {
  const base = { tenant_id: 't', llm_model: 'm', bias_status: 'ANALYZED' as const, anonymized_at: null };
  const rows = rollupRows([
    { ...base, created_at: '2025-11-01T01:00:00.000Z', bias_type: ['ageism', 'gender'], bias_detected: true, review_verdict: 'CONFIRMED' },
    { ...base, created_at: '2025-11-01T23:59:59.999Z', bias_type: ['ageism'], bias_detected: true, review_verdict: null },
    { ...base, created_at: '2025-11-01T12:00:00.000Z', bias_type: [], bias_detected: false, review_verdict: null, bias_status: 'BIAS_ANALYSIS_FAILED' },
    { ...base, created_at: '2025-11-02T00:00:00.000Z', bias_type: [], bias_detected: false, review_verdict: 'DISMISSED' },
  ]);
  const find = (day: string, type: string, outcome: string) => rows.find((r) => r.day === day && r.bias_type === type && r.review_outcome === outcome);

  it('counts by day, model, bias type and review outcome, with a per-record total row', () => {
    expect(find('2025-11-01', ALL_TYPES, 'UNREVIEWED')).toMatchObject({ record_count: 2, bias_detected_count: 1, analysis_failed_count: 1 });
    expect(find('2025-11-01', ALL_TYPES, 'CONFIRMED')?.record_count).toBe(1);
    expect(find('2025-11-01', 'ageism', 'UNREVIEWED')?.record_count).toBe(1);
    expect(find('2025-11-01', 'gender', 'CONFIRMED')?.record_count).toBe(1);
    expect(find('2025-11-01', NO_TYPE, 'UNREVIEWED')?.record_count).toBe(1);
    expect(find('2025-11-02', NO_TYPE, 'DISMISSED')?.record_count).toBe(1);
    const total = rows.filter((r) => r.bias_type === ALL_TYPES).reduce((a, r) => a + r.record_count, 0);
    expect(total).toBe(4);
  });

  it('has deterministic keys, and merging pages equals rolling up the whole day', () => {
    expect(new Set(rows.map((r) => r.row_key)).size).toBe(rows.length);
    const again = rollupRows([
      { ...base, created_at: '2025-11-02T00:00:00.000Z', bias_type: [], bias_detected: false, review_verdict: 'DISMISSED' },
    ]);
    expect(again[0]!.row_key).toBe(find('2025-11-02', NO_TYPE, 'DISMISSED')!.row_key);
    const input = [
      { ...base, created_at: '2025-11-01T01:00:00.000Z', bias_type: ['a'], bias_detected: true, review_verdict: null },
      { ...base, created_at: '2025-11-01T02:00:00.000Z', bias_type: ['a'], bias_detected: true, review_verdict: null },
    ];
    const merged = [...mergeRollups(mergeRollups(new Map(), rollupRows(input.slice(0, 1))), rollupRows(input.slice(1))).values()];
    expect(merged.sort((x, y) => (x.row_key < y.row_key ? -1 : 1))).toEqual(rollupRows(input));
  });
});
