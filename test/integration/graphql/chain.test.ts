// A review through the API is sealed into the audit's hash chain; editing a stored event directly in Firestore
// (bypassing the store) flips chainValid to false and names the altered event.
import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueTenant } from '../../support/tenants';
import { createHarness, firestore, seedAudit, type Harness } from './harness';

let h: Harness;
let tenant: string;
beforeAll(async () => {
  h = await createHarness();
  tenant = uniqueTenant('gqchain');
});

const Q = `query($id: ID!) { llmInteractionAudit(id: $id) { biasDetected reviewVerdict events { seq type actor payload } chainValid chainProblems { seq reason } } }`;

describe('hash chain through the API', () => {
  it('a review appears in the history and the chain stays valid; tampering flips it', async () => {
    const id = await seedAudit(h, tenant, { report: { bias_detected: true, bias_type: ['gender'], confidence: 0.8 } });
    const reviewer = await h.token(tenant, 'reviewer', 'alice');
    const viewer = await h.token(tenant, 'viewer');
    const r = await h.gql(`mutation($id: ID!) { recordBiasReview(id: $id, input: { humanReviewed: true, verdict: CONFIRMED, humanBiasTag: ["gender"], reviewNotes: "clear case" }) { id } }`, { id }, reviewer);
    expect(r.body.errors).toBeUndefined();
    const before = await h.gql(Q, { id }, viewer);
    const a = before.body.data!.llmInteractionAudit;
    expect(a.events.map((e: { type: string }) => e.type)).toEqual(['created', 'bias_analyzed', 'reviewed']);
    expect(a.events[2]).toMatchObject({ actor: 'alice', payload: { verdict: 'CONFIRMED', review_notes: 'clear case' } });
    expect(a).toMatchObject({ biasDetected: true, reviewVerdict: 'CONFIRMED', chainValid: true, chainProblems: [] });

    // Rewrite history: make the review say DISMISSED, directly in Firestore.
    await firestore().doc(`tenants/${tenant}/audits/${id}/events/000003`).update({ 'payload.verdict': 'DISMISSED' });
    const after = await h.gql(Q, { id }, viewer);
    const t = after.body.data!.llmInteractionAudit;
    expect(t.chainValid).toBe(false);
    expect(t.chainProblems.some((p: { seq: number; reason: string }) => p.seq === 3 && /altered/.test(p.reason))).toBe(true);
    const explain = await h.gql(`query($id: ID!) { explain(auditId: $id) { chainValid } }`, { id }, viewer);
    expect(explain.body.data!.explain.chainValid).toBe(false);
  });

  it('editing the record itself (not an event) also breaks the chain', async () => {
    const id = await seedAudit(h, tenant, { report: { bias_detected: true, bias_type: ['age'], confidence: 0.6 } });
    const viewer = await h.token(tenant, 'viewer');
    expect((await h.gql(Q, { id }, viewer)).body.data!.llmInteractionAudit.chainValid).toBe(true);
    await firestore().doc(`tenants/${tenant}/audits/${id}`).update({ bias_detected: false });
    const t = (await h.gql(Q, { id }, viewer)).body.data!.llmInteractionAudit;
    expect(t.chainValid).toBe(false);
    expect(t.chainProblems.map((p: { reason: string }) => p.reason).join(' ')).toMatch(/record fields differ/);
  });

  it('deleting the last event is detected', async () => {
    const id = await seedAudit(h, tenant, { report: { bias_detected: false, confidence: 0.1 } });
    const viewer = await h.token(tenant, 'viewer');
    await firestore().doc(`tenants/${tenant}/audits/${id}/events/000002`).delete();
    expect((await h.gql(Q, { id }, viewer)).body.data!.llmInteractionAudit.chainValid).toBe(false);
  });
});
