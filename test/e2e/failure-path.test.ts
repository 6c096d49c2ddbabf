// Acceptance (issue: foundation): analyzer faults never lose or block an audit.
// It runs its own small stack (audit-write and the worker only, no sweeper), so every retry seen here is Pub/Sub
// redelivery and the dead letter comes from the subscription's policy (local subscriptions: decision 062).
import { Firestore } from '@google-cloud/firestore';
import { PubSub } from '@google-cloud/pubsub';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freeOffset } from '../../scripts/lib/emulators';
import { startStack, type RunningStack } from '../../scripts/lib/stack';
import { mintDevToken } from '../../shared/auth/tokens';
import { loadConfig } from '../../shared/config';
import { FUNCTIONS, TOPICS, deadLetterTopic } from '../../shared/topology';
import { collectTopic, waitFor } from '../support/e2e';
import { interactionPayload } from '../support/interactions';
import { uniqueTenant } from '../support/tenants';

let stack: RunningStack;
let ctx: { db: Firestore; pubsub: PubSub; urls: Record<string, string>; token: (tenantId: string) => Promise<string> };

beforeAll(async () => {
  stack = await startStack({
    faultInjection: true,
    importData: false,
    portOffset: await freeOffset(FUNCTIONS.map((f) => f.port)),
    only: ['auditWriteHttp', 'analyzeBiasWorker'],
    log: (l) => console.log(`[failure-path stack] ${l}`),
  });
  const db = new Firestore({ projectId: stack.projectId });
  const pubsub = new PubSub({ projectId: stack.projectId });
  ctx = { db, pubsub, urls: { auditWriteHttp: stack.url('auditWriteHttp') }, token: (tenantId) => mintDevToken(loadConfig(stack.env), { tenantId, role: 'service' }) };
});
afterAll(async () => {
  await ctx?.pubsub.close();
  await ctx?.db.terminate();
  await stack?.stop();
});

describe('analysis failure path', () => {
  it('marks failing audits BIAS_ANALYSIS_FAILED, analyses them on redelivery, and dead-letters a message that always fails', async () => {
    const tenant = uniqueTenant('fault');
    const token = await ctx.token(tenant);
    const dlq = await collectTopic(ctx.pubsub, deadLetterTopic(TOPICS.analysisRequests), `dlq-${tenant}`);
    const post = (body: unknown) =>
      fetch(`${ctx.urls.auditWriteHttp}/interactions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });

    const transientIds = ['flaky-1', 'flaky-2', 'flaky-3'];
    const healthyIds = ['ok-1', 'ok-2'];
    for (const [k, id] of transientIds.entries()) {
      const p = interactionPayload(k, { interaction_id: id });
      expect((await post({ ...p, llm_response: `${p.llm_response} [[fault:2]]` })).status).toBe(201);
    }
    for (const [k, id] of healthyIds.entries()) expect((await post(interactionPayload(10 + k, { interaction_id: id }))).status).toBe(201);
    const doomed = interactionPayload(20, { interaction_id: 'doomed' });
    expect((await post({ ...doomed, llm_response: `${doomed.llm_response} [[fault:always]]` })).status).toBe(201);

    const audit = async (id: string) => (await ctx.db.doc(`tenants/${tenant}/audits/${id}`).get()).data();
    const events = async (id: string) => (await ctx.db.collection(`tenants/${tenant}/audits/${id}/events`).orderBy('seq').get()).docs.map((d) => d.data());

    // While the analyzer fails, the audits exist and say so.
    await waitFor(async () => (await audit('flaky-1'))?.bias_status === 'BIAS_ANALYSIS_FAILED', 30_000);
    expect((await audit('flaky-1'))?.analysis_error).toBe('InjectedFault');

    // Once it recovers, redelivery analyses them, each with its failures on record.
    for (const id of [...transientIds, ...healthyIds]) {
      await waitFor(async () => (await audit(id))?.bias_status === 'ANALYZED', 90_000, 500);
    }
    for (const id of transientIds) {
      const a = await audit(id);
      expect(a?.analysis_attempts).toBe(2);
      expect((await events(id)).map((e) => e.type)).toEqual(['created', 'analysis_failed', 'analysis_failed', 'bias_analyzed']);
    }
    for (const id of healthyIds) expect((await events(id)).map((e) => e.type)).toEqual(['created', 'bias_analyzed']);

    // The always-failing message ends on the dead-letter topic; its audit is still there, marked failed.
    const dead = await waitFor(async () => dlq.messages.find((m) => (m.data as { audit_id?: string }).audit_id === 'doomed'), 240_000, 500);
    expect(dead.data).toMatchObject({ tenant_id: tenant, audit_id: 'doomed' });
    await dlq.close();
    const d = await audit('doomed');
    expect(d?.bias_status).toBe('BIAS_ANALYSIS_FAILED');
    expect(d?.analysis_attempts).toBeGreaterThanOrEqual(5);
    expect(d?.llm_response).toContain('[[fault:always]]');
    const total = (await ctx.db.collection(`tenants/${tenant}/audits`).get()).size;
    expect(total).toBe(6);
  });
});
