import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GENESIS_HASH, sealEvent, verifyChain } from '../../../shared/domain/audit/chain';
import { biasUpdateFromReport, newAuditRecord, withAnalysisFailure, withBiasUpdate, withReview } from '../../../shared/domain/audit/record';
import type { AuditEvent, AuditRecord } from '../../../shared/schemas/audit';

const record0 = newAuditRecord(
  { original_query: 'q', llm_provider: 'openai', llm_model: 'm', llm_response: 'The chairman decides.', status: 'success' },
  { id: 'a1', tenantId: 't1', traceId: 'f'.repeat(32), now: '2026-01-01T00:00:00.000Z' },
);

function history() {
  const events: AuditEvent[] = [];
  let record: AuditRecord = record0;
  const push = (type: AuditEvent['type'], next: AuditRecord) => {
    const head = events.at(-1) ?? null;
    events.push(sealEvent('t1', 'a1', head && { seq: head.seq, hash: head.hash }, { type, at: '2026-01-01T00:00:01.000Z', key: null, actor: 'test', payload: { n: events.length } }, next));
    record = next;
  };
  push('created', record);
  push('analysis_failed', withAnalysisFailure(record, 'Timeout'));
  push(
    'bias_analyzed',
    withBiasUpdate(record, biasUpdateFromReport({ bias_detected: true, bias_type: ['gender', 'language'], bias_score: { language_score: 0.7 }, confidence: 0.8123456, mitigation_action: { type: 'REPHRASE_RESPONSE', details: 'chairman → chair' }, bias_report_summary: { findings: [] } }), '2026-01-01T00:00:02.000Z'),
  );
  push('reviewed', withReview(record, { humanReviewed: true, verdict: 'CONFIRMED', humanBiasTag: ['gender'], reviewNotes: 'ok', reviewerId: 'rev' }, '2026-01-01T00:00:03.000Z'));
  const last = events.at(-1)!;
  return { events, record, head: { seq: last.seq, hash: last.hash } };
}

describe('audit hash chain', () => {
  it('links each event to the previous one from the genesis hash and verifies', () => {
    const { events, record, head } = history();
    expect(events[0]!.prev_hash).toBe(GENESIS_HASH);
    events.slice(1).forEach((e, i) => expect(e.prev_hash).toBe(events[i]!.hash));
    expect(verifyChain('t1', 'a1', record, head, events)).toEqual({ valid: true, eventsChecked: 4, problems: [] });
  });

  it('keeps the machine verdict beside the review', () => {
    const { record } = history();
    expect(record.bias_detected).toBe(true);
    expect(record.review_verdict).toBe('CONFIRMED');
    expect(record.bias_confidence_score).toBe(0.8123);
    expect(record.analysis_attempts).toBe(1);
  });

  it('detects a change to any field of any event, naming that event', () => {
    const fields = ['type', 'at', 'key', 'actor', 'payload', 'state_digest', 'prev_hash', 'hash', 'seq'] as const;
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3 }), fc.constantFrom(...fields), fc.string({ minLength: 1, maxLength: 8 }), (index, field, junk) => {
        const { events, record, head } = history();
        const target = { ...events[index]! } as Record<string, unknown>;
        target[field] = field === 'seq' ? (target.seq as number) + 7 : field === 'payload' ? { n: junk } : `${String(target[field])}${junk}`;
        const tampered = events.map((e, i) => (i === index ? (target as unknown as AuditEvent) : e));
        const result = verifyChain('t1', 'a1', record, head, tampered);
        expect(result.valid).toBe(false);
        expect(result.problems.length).toBeGreaterThan(0);
      }),
      { numRuns: 200 },
    );
  });

  it('names the altered event', () => {
    const { events, record, head } = history();
    const tampered = events.map((e) => (e.seq === 3 ? { ...e, payload: { n: 99 } } : e));
    const result = verifyChain('t1', 'a1', record, head, tampered);
    expect(result.problems[0]).toMatchObject({ seq: 3, eventId: '000003' });
    expect(result.problems[0]!.reason).toMatch(/bias_analyzed was altered/);
  });

  it('detects a record edited outside the chain, a removed last event and an event moved to another audit', () => {
    const { events, record, head } = history();
    expect(verifyChain('t1', 'a1', { ...record, bias_detected: false }, head, events).problems.map((p) => p.reason)).toEqual([
      'record fields differ from the state sealed by the last event',
    ]);
    expect(verifyChain('t1', 'a1', record, head, events.slice(0, 3)).valid).toBe(false);
    expect(verifyChain('t1', 'a2', record, head, events).valid).toBe(false);
    expect(verifyChain('t2', 'a1', record, head, events).valid).toBe(false);
  });

  it('a failure after a successful analysis keeps the verdict', () => {
    const { record } = history();
    const after = withAnalysisFailure(record, 'Duplicate');
    expect(after.bias_status).toBe('ANALYZED');
    expect(after.bias_detected).toBe(true);
  });
});

describe('bias severity', () => {
  it('is the highest taxonomy severity among detected bias types, 0 when nothing is detected', () => {
    const at = '2026-01-01T00:00:00.000Z';
    expect(withBiasUpdate(record0, { bias_detected: true, bias_type: ['language', 'race_ethnicity'] }, at).bias_severity).toBe(5);
    expect(withBiasUpdate(record0, { bias_detected: true, bias_type: ['language'] }, at).bias_severity).toBe(2);
    expect(withBiasUpdate(record0, { bias_detected: false, bias_type: ['language'] }, at).bias_severity).toBe(0);
  });
});
