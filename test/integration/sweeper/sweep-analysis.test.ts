// The analysis sweeper against the Firestore emulator: which audits it re-requests, that it marks them, that it is
// bounded and that a second run leaves re-requested audits alone. The bus is a recording fake of our port.
import { Firestore } from '@google-cloud/firestore';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FirestoreAuditStore } from '../../../shared/adapters/firestore/audit-store';
import { FirestoreStaleAudits } from '../../../shared/adapters/firestore/stale-audits';
import { sweepAnalysis, type SweepOptions } from '../../../shared/app/sweep-analysis';
import { newAuditRecord, withAnalysisFailure, withBiasUpdate } from '../../../shared/domain/audit/record';
import { createLogger } from '../../../shared/logging';
import { fixedClock } from '../../../shared/ports/clock';
import type { EventBus } from '../../../shared/ports/event-bus';
import { TOPICS } from '../../../shared/topology';
import { uniqueTenant } from '../../support/tenants';

const db = new Firestore({ projectId: process.env.GCLOUD_PROJECT, ignoreUndefinedProperties: true });
const store = new FirestoreAuditStore(db);
const finder = new FirestoreStaleAudits(db);
const log = createLogger({ projectId: 'demo-bias-monitor', component: 'sweeper-test', write: () => {} });

// A fixed past clock keeps other files' audits (created at real time) out of this file's queries.
const T0 = Date.parse('2021-03-01T12:00:00.000Z');
const at = (minutesBefore: number) => new Date(T0 - minutesBefore * 60_000).toISOString();
const OPTS: SweepOptions = { pendingAfterMs: 2 * 60_000, failedAfterMs: 30 * 60_000, maxAttempts: 15, limit: 1000 };

function recordingBus() {
  const sent: { topic: string; payload: { tenant_id: string; audit_id: string; trace_id: string } }[] = [];
  const bus: EventBus = {
    async publish(topic, payload) {
      sent.push({ topic, payload: payload as (typeof sent)[number]['payload'] });
      return String(sent.length);
    },
  };
  return { bus, sent };
}

async function seed(tenant: string, id: string, createdMinutesAgo: number) {
  const record = newAuditRecord(
    { original_query: 'q', llm_provider: 'p', llm_model: 'm', llm_response: `r ${id}`, status: 'success' },
    { id, tenantId: tenant, traceId: 'a'.repeat(32), now: at(createdMinutesAgo) },
  );
  await store.create(record, { type: 'created', at: record.created_at, key: 'created', actor: 'test', payload: {} });
}

const failTimes = async (tenant: string, id: string, n: number) => {
  for (let i = 0; i < n; i++) {
    await store.applyEvent(tenant, id, null, (c) => ({ draft: { type: 'analysis_failed', at: at(50), key: null, actor: 'test', payload: {} }, next: withAnalysisFailure(c, 'InjectedFault') }));
  }
};
const analyse = (tenant: string, id: string, minutesAgo: number) =>
  store.applyEvent(tenant, id, 'bias_analyzed', (c) => ({
    draft: { type: 'bias_analyzed', at: at(minutesAgo), key: 'bias_analyzed', actor: 'test', payload: {} },
    next: withBiasUpdate(c, { bias_detected: false }, at(minutesAgo)),
  }));

const mine = (tenant: string, sent: ReturnType<typeof recordingBus>['sent']) =>
  sent.filter((s) => s.payload.tenant_id === tenant).map((s) => s.payload.audit_id).sort();

describe('analysis sweeper', () => {
  const tenant = uniqueTenant('sweep');
  beforeAll(async () => {
    await seed(tenant, 'never-requested', 10); // writer died between create and publish
    await seed(tenant, 'just-created', 1); // publish may still be under way: left alone
    await seed(tenant, 'lost-request', 20);
    await store.markAnalysisRequested(tenant, 'lost-request', at(19)); // message lost (e.g. broker restart)
    await seed(tenant, 'queued', 20);
    await store.markAnalysisRequested(tenant, 'queued', at(1)); // recently requested: left alone
    await seed(tenant, 'dead-lettered', 60);
    await failTimes(tenant, 'dead-lettered', 5);
    await store.markAnalysisRequested(tenant, 'dead-lettered', at(45));
    await seed(tenant, 'failing-recently', 60);
    await failTimes(tenant, 'failing-recently', 2);
    await store.markAnalysisRequested(tenant, 'failing-recently', at(5)); // still inside its retry window
    await seed(tenant, 'given-up', 60);
    await failTimes(tenant, 'given-up', 15);
    await store.markAnalysisRequested(tenant, 'given-up', at(45));
    await seed(tenant, 'unstreamed', 30);
    await store.markAnalysisRequested(tenant, 'unstreamed', at(30));
    await analyse(tenant, 'unstreamed', 10); // sealed, but the worker died before the stream publish
    await seed(tenant, 'streamed', 30);
    await store.markAnalysisRequested(tenant, 'streamed', at(30));
    await analyse(tenant, 'streamed', 10);
    await store.markStreamPublished(tenant, 'streamed', at(10));
  });
  afterAll(() => db.terminate());

  it('counts but publishes nothing on a dry run', async () => {
    const { bus, sent } = recordingBus();
    const report = await sweepAnalysis({ finder, store, bus, clock: fixedClock(new Date(T0).toISOString()), log }, { ...OPTS, dryRun: true });
    expect(sent).toHaveLength(0);
    expect(report.requested).toBe(0);
    expect(report.found.unrequested + report.found.pending + report.found.failed + report.found.unstreamed).toBeGreaterThanOrEqual(4);
    expect((await store.get(tenant, 'never-requested'))!.analysis_requested_at).toBeNull();
  });

  it('re-requests lost, never-requested, dead-lettered and unstreamed audits, and only those', async () => {
    const { bus, sent } = recordingBus();
    await sweepAnalysis({ finder, store, bus, clock: fixedClock(new Date(T0).toISOString()), log }, OPTS);
    expect(mine(tenant, sent)).toEqual(['dead-lettered', 'lost-request', 'never-requested', 'unstreamed']);
    expect(new Set(sent.map((s) => s.topic))).toEqual(new Set([TOPICS.analysisRequests]));
    const msg = sent.find((s) => s.payload.audit_id === 'never-requested')!.payload;
    expect(msg).toEqual({ tenant_id: tenant, audit_id: 'never-requested', trace_id: 'a'.repeat(32) });
    for (const id of ['never-requested', 'lost-request', 'dead-lettered']) {
      expect((await store.get(tenant, id))!.analysis_requested_at).toBe(new Date(T0).toISOString());
    }
  });

  it('leaves re-requested audits alone on the next run, until they are stale again', async () => {
    const { bus, sent } = recordingBus();
    await sweepAnalysis({ finder, store, bus, clock: fixedClock(new Date(T0 + 60_000).toISOString()), log }, OPTS);
    // Only the unstreamed audit is asked again: its state changes when the worker publishes, not when we ask.
    expect(mine(tenant, sent)).toEqual(['unstreamed']);
    const later = recordingBus();
    await sweepAnalysis({ finder, store, bus: later.bus, clock: fixedClock(new Date(T0 + 3 * 60_000).toISOString()), log }, OPTS);
    // 'queued' (requested at T0-1min) is now stale too; 'failing-recently' is still inside the failed window.
    expect(mine(tenant, later.sent)).toEqual(['just-created', 'lost-request', 'never-requested', 'queued', 'unstreamed']);
  });

  it('is bounded per run', async () => {
    const t2 = uniqueTenant('sweep-limit');
    for (let i = 0; i < 7; i++) await seed(t2, `a${i}`, 30);
    const { bus, sent } = recordingBus();
    // Another file's old audits could take some of the budget; ours are all that exist before this clock.
    const clock = fixedClock(new Date(Date.parse(at(29)) + 2 * 60_000 + 1000).toISOString());
    const report = await sweepAnalysis({ finder, store, bus, clock, log }, { ...OPTS, limit: 3 });
    expect(report.requested).toBe(3);
    expect(sent).toHaveLength(3);
    const rest = recordingBus();
    await sweepAnalysis({ finder, store, bus: rest.bus, clock, log }, { ...OPTS, limit: 100 });
    expect(mine(t2, rest.sent)).toHaveLength(4);
  });
});
