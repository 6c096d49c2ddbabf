// council-audit (HTTP, via getTestServer) → records in Firestore and DuckDB → aggregate job (its Pub/Sub handler)
// → report through the CLI (child process, --format json) and Firestore tenants/{t}/bias_reports/latest.
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Firestore } from '@google-cloud/firestore';
import { PubSub } from '@google-cloud/pubsub';
import type { PubSubPush } from '../../../shared/transport/pubsub';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDbWarehouse } from '../../../shared/adapters/duckdb/warehouse';
import { mintDevToken } from '../../../shared/auth/tokens';
import { loadConfig } from '../../../shared/config';
import { BiasMetricRecord, BiasReportJson } from '../../../shared/schemas/council';
import { TOPICS } from '../../../shared/topology';
import { generateSessions } from '../../support/council-data';
import { uniqueTenant } from '../../support/tenants';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'council-it-'));
const DUCKDB_PATH = join(dir, 'warehouse.duckdb');
process.env.DUCKDB_PATH = DUCKDB_PATH;
process.env.AUTH_HS256_SECRET ??= 'integration-test-secret-0123456789abcdef';
process.env.HMAC_SECRET ??= 'integration-hmac-secret-0123';
process.env.WAREHOUSE = 'duckdb';

const tenant = uniqueTenant('council');
const config = loadConfig(process.env);
const db = new Firestore({ projectId: config.GCLOUD_PROJECT });
const NOW = '2026-11-22T12:00:00.000Z';
let base = '';
let close: () => void = () => undefined;
let aggregateHandler: (push: PubSubPush) => Promise<void>;

const sessions = generateSessions({ seed: 77, sessions: 24, start: new Date('2026-11-20T00:00:00Z'), stepMs: 600_000, scales: ['1-10', '0-1'], includeSelfVotes: true });

async function post(body: unknown, role: 'service' | 'admin' | 'viewer' = 'service') {
  const token = await mintDevToken(config, { tenantId: tenant, role });
  const res = await fetch(`${base}/council-audit`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  await new PubSub({ projectId: config.GCLOUD_PROJECT }).createTopic(TOPICS.alerts).catch((e: { code?: number }) => {
    if (e.code !== 6) throw e; // ALREADY_EXISTS
  });
  await import('../../../functions/council-audit/index');
  ({ aggregateJobHandler: aggregateHandler } = (await import('../../../functions/aggregate/index')) as unknown as { aggregateJobHandler: typeof aggregateHandler });
  const { getTestServer } = await import('@google-cloud/functions-framework/testing');
  const server = getTestServer('councilAuditHttp');
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close());

describe('council audit → warehouse → aggregate → report', () => {
  it('audits sessions over HTTP and persists records to Firestore and DuckDB, idempotently', async () => {
    for (const s of sessions) {
      const r = await post(s);
      expect(r.status).toBe(201);
      expect((r.body.audit as { length_unit: string }).length_unit).toBe('characters');
    }
    const again = await post(sessions[0]);
    expect(again.status).toBe(200);
    expect(again.body.created).toBe(false);

    const zero = await post({ ...sessions[1], session_id: 'consent-zero', consent_level: 0 });
    expect(zero.status).toBe(200);
    expect(zero.body.stored).toBe(false);
    const four = await post({ ...sessions[2], session_id: 'consent-four', consent_level: 4, query: 'What is the private question?' }, 'admin');
    expect(four.status).toBe(201);
    expect((await post({ ...sessions[3], session_id: 'viewer-try' }, 'viewer')).status).toBe(403);
    expect((await post({ ...sessions[3], session_id: 'bad-scale', score_scale: '0-1', stage2: { 'openai/gpt-5': { 'x-ai/grok-4': 7 } } })).status).toBe(400);

    const col = db.collection('tenants').doc(tenant).collection('council_sessions');
    expect((await col.get()).size).toBe(25);
    expect((await col.doc('consent-zero').get()).exists).toBe(false);
    const recs = (await col.doc('consent-four').collection('metric_records').get()).docs.map((d) => BiasMetricRecord.parse(d.data()));
    expect(recs).toHaveLength(25);
    expect(recs.every((r) => /^[0-9a-f]{64}$/.test(r.query_hash ?? ''))).toBe(true);
    const plain = (await col.doc(sessions[5]!.session_id).collection('metric_records').get()).docs.map((d) => d.data());
    expect(plain.every((r) => r.query_hash === null)).toBe(true);
    expect(JSON.stringify((await col.doc('consent-four').get()).data())).not.toContain('private question');

    const wh = new DuckDbWarehouse(DUCKDB_PATH);
    const stats = await wh.windowStats({ tenantId: tenant, now: new Date(NOW), days: null, maxSessions: null, modelId: null, configVersion: null });
    expect(stats.sessions).toHaveLength(25);
    expect(stats.sessions.reduce((a, s) => a + s.xy.n, 0)).toBe(25 * 20);
  });

  it('the aggregate job writes the report to Firestore and the warehouse, alerts once per window, and the CLI agrees', async () => {
    const tick = (id: string) =>
      ({ message: { data: Buffer.from(JSON.stringify({ job: 'aggregate', now: NOW, tenant_id: tenant })).toString('base64'), messageId: id } }) satisfies PubSubPush;
    await aggregateHandler(tick('tick-1'));
    const latest = BiasReportJson.parse((await db.doc(`tenants/${tenant}/bias_reports/latest`).get()).data());
    expect(latest.tenant_id).toBe(tenant);
    expect(latest.generated_at).toBe(NOW);
    expect(latest.window.sessions).toBe(25);
    expect(latest.confidence_tier).toBe('moderate');
    expect(latest.length_correlation.n).toBe(500);
    expect(latest.reviewers.find((r) => r.reviewer_id === 'openai/gpt-5')!.classification).toBe('harsh');
    const history = await db.collection(`tenants/${tenant}/bias_reports`).get();
    expect(history.size).toBe(2);

    const alerts = await db.collection(`tenants/${tenant}/bias_alerts`).get();
    expect(alerts.size).toBeGreaterThan(0);
    expect(alerts.docs.every((d) => typeof d.data().published_at === 'string')).toBe(true);
    await aggregateHandler(tick('tick-2')); // same window: no new alert documents
    expect((await db.collection(`tenants/${tenant}/bias_alerts`).get()).size).toBe(alerts.size);

    const { stdout } = await run(process.execPath, ['bin/bias-monitor.js', 'bias-report', '--format', 'json', '--tenant', tenant, '--all', '--now', NOW], {
      env: { ...process.env, DUCKDB_PATH },
      maxBuffer: 10 << 20,
    });
    const cli = BiasReportJson.parse(JSON.parse(stdout));
    expect(cli.window.sessions).toBe(25);
    expect(cli.length_correlation.n).toBe(latest.length_correlation.n);
    expect(cli.length_correlation.r).toBeCloseTo(latest.length_correlation.r!, 12);
    expect(cli.length_correlation.bootstrap_ci_lower).toBeCloseTo(latest.length_correlation.bootstrap_ci_lower!, 12);
    expect(cli.reviewers).toEqual(latest.reviewers);
  });
});
