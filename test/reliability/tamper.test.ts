// Tamper evidence (issue 6 item 4), property-based: for audits with several events, changing any single field of
// any stored event, or any sealed field of the audit record, directly in Firestore is reported by verifyChain,
// naming the event. Each change is undone before the next, so one set of audits serves every run.
import { Firestore, type DocumentReference } from '@google-cloud/firestore';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../scripts/lib/stack';
import { FirestoreAuditStore } from '../../shared/adapters/firestore/audit-store';
import { eventDocId, verifyChain } from '../../shared/domain/audit/chain';
import { newAuditRecord, withAnalysisFailure, withBiasUpdate, withReview } from '../../shared/domain/audit/record';
import { canonicalJson } from '../../shared/domain/canonical-json';
import { AuditRecord, type AuditEvent, type StoredAudit } from '../../shared/schemas/audit';
import { uniqueTenant } from '../support/tenants';
import { startReliabilityStack } from './support/stack';

let stack: RunningStack;
let db: Firestore;
const tenant = uniqueTenant('tamper');
const AUDITS = ['a1', 'a2', 'a3'];
const EVENT_FIELDS = ['seq', 'type', 'at', 'key', 'actor', 'payload', 'state_digest', 'prev_hash', 'hash'] as const;
const RECORD_FIELDS = [...Object.keys(AuditRecord.shape), 'chain_head'];

/** Reads raw documents (no schema), so a tampered type cannot hide behind a parse error. */
async function verifyRaw(auditId: string) {
  const ref = db.doc(`tenants/${tenant}/audits/${auditId}`);
  const [doc, events] = await Promise.all([ref.get(), ref.collection('events').get()]);
  const audit = doc.data() as StoredAudit;
  const evs = events.docs.map((d) => ({ ...(d.data() as AuditEvent), id: d.id }));
  // verifyChain needs a {seq, hash} head; a head tampered into another shape is passed as one that matches nothing.
  const h = audit.chain_head as unknown;
  const head = h && typeof h === 'object' && 'seq' in h && 'hash' in h ? audit.chain_head : { seq: Number.NaN, hash: canonicalJson(h) };
  return verifyChain(tenant, auditId, audit as AuditRecord, head, evs);
}

async function tamper(ref: DocumentReference, field: string, value: unknown, check: () => Promise<void>) {
  const before = (await ref.get()).get(field) as unknown;
  await ref.update({ [field]: value });
  try {
    await check();
  } finally {
    await ref.update({ [field]: before });
  }
}

const newValue = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.dictionary(fc.string({ minLength: 1, maxLength: 5 }), fc.oneof(fc.string({ maxLength: 5 }), fc.integer()), { maxKeys: 3 }),
  fc.constantFrom('0'.repeat(64), 'bias_analyzed', 'created', 'ANALYZED', ''),
);

describe('tamper evidence', () => {
  beforeAll(async () => {
    stack = await startReliabilityStack({ only: [] });
    db = new Firestore({ projectId: stack.projectId, ignoreUndefinedProperties: true });
    const store = new FirestoreAuditStore(db);
    const at = (s: number) => new Date(Date.UTC(2026, 10, 22, 10, 0, s)).toISOString();
    for (const id of AUDITS) {
      const record = newAuditRecord(
        { interaction_id: id, original_query: 'Who should lead?', llm_provider: 'p', llm_model: 'm', llm_response: `The chairman decides (${id}).`, user_email: 'a@example.com', status: 'success' },
        { id, tenantId: tenant, traceId: 'b'.repeat(32), now: at(0) },
      );
      await store.create(record, { type: 'created', at: at(0), key: 'created', actor: 'svc', payload: { prompt_hash: record.prompt_hash } });
      await store.applyEvent(tenant, id, null, (c) => ({ draft: { type: 'analysis_failed', at: at(1), key: null, actor: 'analyzer', payload: { error: 'X', attempt: 1 } }, next: withAnalysisFailure(c, 'X') }));
      await store.applyEvent(tenant, id, 'bias_analyzed', (c) => ({
        draft: { type: 'bias_analyzed', at: at(2), key: 'bias_analyzed', actor: 'analyzer', payload: { bias_detected: true, bias_type: ['gender'] } },
        next: withBiasUpdate(c, { bias_detected: true, bias_type: ['gender'], bias_score: { gender: 0.8 }, bias_confidence_score: 0.8 }, at(2)),
      }));
      await store.applyEvent(tenant, id, 'review:r1', (c) => ({
        draft: { type: 'reviewed', at: at(3), key: 'review:r1', actor: 'reviewer@x', payload: { verdict: 'CONFIRMED' } },
        next: withReview(c, { humanReviewed: true, verdict: 'CONFIRMED', humanBiasTag: null, reviewNotes: 'ok', reviewerId: 'reviewer@x' }, at(3)),
      }));
    }
  });
  afterAll(async () => {
    await db?.terminate();
    await stack?.stop();
  });

  it('untouched audits verify', async () => {
    for (const id of AUDITS) {
      const v = await verifyRaw(id);
      expect(v.problems).toEqual([]);
      expect(v.eventsChecked).toBe(4);
    }
  });

  it('any change to any field of any stored event is reported, naming that event', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...AUDITS), fc.integer({ min: 1, max: 4 }), fc.constantFrom(...EVENT_FIELDS), newValue, async (auditId, seq, field, value) => {
        const ref = db.doc(`tenants/${tenant}/audits/${auditId}/events/${eventDocId(seq)}`);
        const old = (await ref.get()).get(field) as unknown;
        fc.pre(canonicalJson(old) !== canonicalJson(value));
        await tamper(ref, field, value, async () => {
          const v = await verifyRaw(auditId);
          expect(v.valid).toBe(false);
          expect(v.problems.map((p) => p.eventId)).toContain(eventDocId(seq));
        });
      }),
      { numRuns: Number(process.env.TAMPER_RUNS ?? 120), seed: 6 },
    );
    for (const id of AUDITS) expect((await verifyRaw(id)).valid).toBe(true);
  });

  it('a change inside an event payload is reported', async () => {
    const ref = db.doc(`tenants/${tenant}/audits/a1/events/${eventDocId(3)}`);
    await tamper(ref, 'payload.bias_detected', false, async () => {
      const v = await verifyRaw('a1');
      expect(v.problems).toContainEqual(expect.objectContaining({ eventId: eventDocId(3), reason: expect.stringContaining('altered') }));
    });
  });

  it('any change to a sealed field of the audit record is reported against the last event', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...AUDITS), fc.constantFrom(...RECORD_FIELDS), newValue, async (auditId, field, value) => {
        const ref = db.doc(`tenants/${tenant}/audits/${auditId}`);
        const old = (await ref.get()).get(field) as unknown;
        fc.pre(canonicalJson(old) !== canonicalJson(value));
        await tamper(ref, field, value, async () => {
          const v = await verifyRaw(auditId);
          expect(v.valid).toBe(false);
          expect(v.problems.map((p) => p.eventId)).toContain(eventDocId(4));
        });
      }),
      { numRuns: Number(process.env.TAMPER_RUNS ?? 120), seed: 7 },
    );
  });

  it('removing the last event or adding one is reported', async () => {
    const ref = db.doc(`tenants/${tenant}/audits/a2/events/${eventDocId(4)}`);
    const data = (await ref.get()).data()!;
    await ref.delete();
    try {
      expect((await verifyRaw('a2')).valid).toBe(false);
    } finally {
      await ref.set(data);
    }
    const extra = db.doc(`tenants/${tenant}/audits/a2/events/${eventDocId(5)}`);
    await extra.set({ ...data, seq: 5, prev_hash: data.hash });
    try {
      const v = await verifyRaw('a2');
      expect(v.valid).toBe(false);
      expect(v.problems.map((p) => p.eventId)).toContain(eventDocId(5));
    } finally {
      await extra.delete();
    }
    expect((await verifyRaw('a2')).valid).toBe(true);
  });
});
