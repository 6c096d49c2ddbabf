// FirestoreAuditStore, PubSubEventBus and the foundation use cases against the real emulators.
import { Firestore } from '@google-cloud/firestore';
import { PubSub } from '@google-cloud/pubsub';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FirestoreAuditStore } from '../../../shared/adapters/firestore/audit-store';
import { PubSubEventBus } from '../../../shared/adapters/pubsub/event-bus';
import { analyzeAudit, applyBiasUpdate } from '../../../shared/app/bias-results';
import { recordInteraction } from '../../../shared/app/record-interaction';
import { verifyAudit } from '../../../shared/app/verify-audit';
import { newAuditRecord } from '../../../shared/domain/audit/record';
import { AppError } from '../../../shared/errors';
import { createLogger } from '../../../shared/logging';
import type { BiasAnalyzer } from '../../../shared/ports/analyzer';
import { systemClock } from '../../../shared/ports/clock';
import { LlmInteractionInput } from '../../../shared/schemas/interaction';
import { TOPICS } from '../../../shared/topology';
import { interactionPayload } from '../../support/interactions';
import { uniqueTenant } from '../../support/tenants';

const projectId = process.env.GCLOUD_PROJECT!;
const db = new Firestore({ projectId, ignoreUndefinedProperties: true });
const pubsub = new PubSub({ projectId });
const store = new FirestoreAuditStore(db);
const bus = new PubSubEventBus(pubsub);
const log = createLogger({ projectId, component: 'test', write: () => undefined });
const deps = { store, bus, clock: systemClock, log };

const published: { topic: string; data: Record<string, unknown> }[] = [];
const subs: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  for (const topic of [TOPICS.analysisRequests, TOPICS.auditStream]) {
    await pubsub.createTopic(topic).catch(() => undefined);
    const [sub] = await pubsub.topic(topic).createSubscription(`it-${topic}-${Date.now()}`);
    sub.on('message', (m) => {
      published.push({ topic, data: JSON.parse(m.data.toString()) });
      m.ack();
    });
    subs.push(sub);
  }
});
afterAll(async () => {
  await Promise.all(subs.map((s) => s.close()));
  await db.terminate();
});

const record = (tenantId: string, id: string) =>
  newAuditRecord({ original_query: 'q', llm_provider: 'p', llm_model: 'm', llm_response: 'r', status: 'success' }, { id, tenantId, traceId: 'a'.repeat(32), now: new Date().toISOString() });

describe('FirestoreAuditStore', () => {
  it('creates once: ten concurrent creates of one id give exactly one winner', async () => {
    const tenant = uniqueTenant();
    const results = await Promise.all(Array.from({ length: 10 }, () => store.create(record(tenant, 'x'), { type: 'created', at: new Date().toISOString(), key: 'created', actor: 't', payload: {} })));
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect((await store.events(tenant, 'x')).map((e) => e.type)).toEqual(['created']);
  });

  it('applies a keyed event at most once and keeps the chain valid under concurrent events', async () => {
    const tenant = uniqueTenant();
    await store.create(record(tenant, 'y'), { type: 'created', at: new Date().toISOString(), key: 'created', actor: 't', payload: {} });
    const apply = (key: string | null, n: number) =>
      store.applyEvent(tenant, 'y', key, (current) => ({
        draft: { type: 'reviewed', at: new Date().toISOString(), key, actor: 't', payload: { n } },
        next: { ...current, review_notes: `note ${n}` },
      }));
    const [first, second] = [await apply('once', 1), await apply('once', 2)];
    expect(first.applied).toBe(true);
    expect(second.applied).toBe(false);
    await Promise.all([3, 4, 5, 6].map((n) => apply(null, n)));
    const events = await store.events(tenant, 'y');
    expect(events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect((await verifyAudit(store, tenant, 'y')).valid).toBe(true);
  });

  it('refuses an event on a missing audit with NOT_FOUND', async () => {
    await expect(store.applyEvent(uniqueTenant(), 'nope', null, () => null)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('record → analyse → stream', () => {
  const analyzer: BiasAnalyzer = {
    analyze: async (req) => ({
      bias_detected: req.llm_response.includes('chairman'),
      bias_type: req.llm_response.includes('chairman') ? ['gender', 'language'] : [],
      bias_score: { language_score: 0.7 },
      confidence: 0.9,
      mitigation_action: { type: 'REPHRASE_RESPONSE', details: 'chairman → chair' },
      bias_report_summary: { findings: [] },
    }),
  };

  it('masks, hashes and requests analysis once; a repeat returns the stored audit; different content conflicts', async () => {
    const tenant = uniqueTenant();
    const input = LlmInteractionInput.parse(interactionPayload(0, { interaction_id: 'r1' }));
    const first = await recordInteraction(deps, { input, tenantId: tenant, actor: 't', traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' });
    expect(first.created).toBe(true);
    expect(first.audit.trace_id).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    const again = await recordInteraction(deps, { input, tenantId: tenant, actor: 't' });
    expect(again.created).toBe(false);
    expect(again.audit.id).toBe('r1');
    await expect(recordInteraction(deps, { input: { ...input, llm_response: 'other' }, tenantId: tenant, actor: 't' })).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(recordInteraction(deps, { input: { ...input, tenant_id: 'someone-else' }, tenantId: tenant, actor: 't' })).rejects.toBeInstanceOf(AppError);
    await new Promise((r) => setTimeout(r, 1000));
    expect(published.filter((p) => p.topic === TOPICS.analysisRequests && p.data.tenant_id === tenant)).toHaveLength(1);
  });

  it('analyses once, publishes exactly the FR-BIAS-4.4.5 payload, and ignores duplicate deliveries', async () => {
    const tenant = uniqueTenant();
    const { audit } = await recordInteraction(deps, { input: LlmInteractionInput.parse(interactionPayload(0, { interaction_id: 'r2' })), tenantId: tenant, actor: 't' });
    const msg = { tenant_id: tenant, audit_id: audit.id, trace_id: audit.trace_id };
    const results = await Promise.all([analyzeAudit({ ...deps, analyzer }, msg), analyzeAudit({ ...deps, analyzer }, msg)]);
    expect(results.every((a) => a.bias_status === 'ANALYZED')).toBe(true);
    await analyzeAudit({ ...deps, analyzer }, msg);
    await new Promise((r) => setTimeout(r, 1000));
    const stream = published.filter((p) => p.topic === TOPICS.auditStream && p.data.tenant_id === tenant);
    expect(stream).toHaveLength(1);
    expect(stream[0]!.data).toEqual({
      audit_id: 'r2',
      tenant_id: tenant,
      bias_detected: true,
      bias_score: { language_score: 0.7 },
      bias_type: ['gender', 'language'],
      bias_confidence_score: 0.9,
      timestamp: expect.any(String),
      trace_id: audit.trace_id,
    });
    expect((await store.events(tenant, 'r2')).map((e) => e.type)).toEqual(['created', 'bias_analyzed']);
  });

  it('the mutation path (applyBiasUpdate without key) appends a new event each time and re-announces', async () => {
    const tenant = uniqueTenant();
    const { audit } = await recordInteraction(deps, { input: LlmInteractionInput.parse(interactionPayload(1, { interaction_id: 'r3' })), tenantId: tenant, actor: 't' });
    const updated = await applyBiasUpdate(deps, { tenantId: tenant, auditId: audit.id, update: { bias_detected: true, bias_type: ['stereotype'] }, actor: 'svc', key: null });
    expect(updated.bias_type).toEqual(['stereotype']);
    expect((await verifyAudit(store, tenant, 'r3')).valid).toBe(true);
  });
});
