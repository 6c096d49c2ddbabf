// Retention on the Firestore emulator with a fake clock. Every test works in its own tenant and runs the job for
// that tenant only, so other files' data is never touched.
import { Firestore } from '@google-cloud/firestore';
import { afterAll, describe, expect, it } from 'vitest';
import { FirestoreAuditStore } from '../../../shared/adapters/firestore/audit-store';
import { auditsCol } from '../../../shared/adapters/firestore/paths';
import { DuckDbRollupSink } from '../../../shared/adapters/duckdb-rollup/rollup-sink';
import { FirestoreRetentionStore, retentionCursorDoc, retentionPolicyDoc } from '../../../shared/adapters/firestore/retention-store';
import { runRetention, type RetentionDeps, type RetentionOptions } from '../../../shared/app/retention';
import { verifyChain } from '../../../shared/domain/audit/chain';
import { newAuditRecord, withReview } from '../../../shared/domain/audit/record';
import { DAY_MS, utcDay } from '../../../shared/domain/retention';
import { createLogger } from '../../../shared/logging';
import { fixedClock } from '../../../shared/ports/clock';
import { LlmInteractionInput } from '../../../shared/schemas/interaction';
import { uniqueTenant } from '../../support/tenants';

const db = new Firestore({ projectId: process.env.GCLOUD_PROJECT, ignoreUndefinedProperties: true });
const store = new FirestoreAuditStore(db);
const retention = new FirestoreRetentionStore(db);
const log = createLogger({ projectId: 'test', component: 'retention-test', level: 'ERROR', write: () => {} });
const NOW = '2026-11-22T10:30:00.000Z';
const ago = (days: number, plusSeconds = 0) => new Date(Date.parse(NOW) - days * DAY_MS + plusSeconds * 1000).toISOString();
const sinks: DuckDbRollupSink[] = [];

afterAll(async () => {
  await Promise.all(sinks.map((s) => s.close()));
  await db.terminate();
});

function deps(): RetentionDeps & { rollups: DuckDbRollupSink } {
  const rollups = new DuckDbRollupSink(':memory:');
  sinks.push(rollups);
  return { store, retention, rollups, clock: fixedClock(NOW), log, hmacSecret: 'test-hmac-secret-0123456789abcdef' };
}

async function seed(tenantId: string, id: string, createdAt: string, extra: Partial<LlmInteractionInput> = {}) {
  const input = LlmInteractionInput.parse({
    interaction_id: id,
    original_query: `Should we promote Jane Roe? (${id})`,
    llm_response: 'Promote the young, energetic one.',
    llm_provider: 'openai',
    llm_model: 'gpt-test',
    user_id: `user-${id}`,
    user_email: 'jane.roe@example.com',
    query_context: 'HR notes about Jane',
    log_timestamp: createdAt,
    ...extra,
  });
  const record = newAuditRecord(input, { id, tenantId, traceId: 'a'.repeat(32), now: createdAt });
  await store.create(record, { type: 'created', at: createdAt, key: 'created', actor: 'test', payload: { prompt_hash: record.prompt_hash } });
}

async function snapshot(tenantId: string) {
  const docs = await auditsCol(db, tenantId).get();
  const out: Record<string, unknown> = {};
  for (const d of docs.docs) out[d.id] = { record: d.data(), events: await store.events(tenantId, d.id) };
  return out;
}

async function chainOk(tenantId: string, id: string) {
  const audit = await store.get(tenantId, id);
  if (!audit) return null;
  return verifyChain(tenantId, id, audit, audit.chain_head, await store.events(tenantId, id));
}

const run = (d: RetentionDeps, tenantId: string, opts: RetentionOptions = {}) => runRetention(d, { tenants: [tenantId], ...opts });

describe('retention job on the emulator', () => {
  it('leaves 179 days, anonymises 181 and 364, rolls up and purges 366; a rerun changes nothing', async () => {
    const t = uniqueTenant('ret');
    const d = deps();
    await seed(t, 'd179', ago(179));
    await seed(t, 'd181', ago(181));
    await seed(t, 'd364', ago(364));
    await seed(t, 'd366', ago(366));
    // A reviewed record: the verdict must survive anonymisation, the notes must not.
    await store.applyEvent(t, 'd181', 'reviewed', (cur) => ({
      draft: { type: 'reviewed', at: ago(180), key: 'reviewed', actor: 'reviewer-1', payload: { verdict: 'CONFIRMED' } },
      next: withReview(cur, { humanReviewed: true, verdict: 'CONFIRMED', humanBiasTag: { tag: 'ageism' }, reviewNotes: 'Jane phoned', reviewerId: 'reviewer-1' }, ago(180)),
    }));
    const before = await snapshot(t);

    const report = await run(d, t);
    expect(report.totals).toMatchObject({ tenants: 1, anonymized: 2, purged: 1, rolled_up_days: 1 });
    expect(report.tenants[0]).toMatchObject({ events_purged: 1, already_anonymized: 0, skipped: null });
    expect(report.duration_ms).toBeGreaterThanOrEqual(0);

    const after = await snapshot(t);
    expect(after.d179).toEqual(before.d179);
    expect(after.d366).toBeUndefined();
    expect((await db.collection(`tenants/${t}/audits/d366/events`).get()).size).toBe(0);
    for (const id of ['d181', 'd364']) {
      const a = (await store.get(t, id))!;
      expect(a).toMatchObject({ original_query: '', llm_response: '', user_email: null, query_context: null, review_notes: null, anonymized_at: NOW, llm_model: 'gpt-test' });
      expect(a.user_id).toMatch(/^anon:[0-9a-f]{64}$/);
      expect(JSON.stringify(a)).not.toMatch(/Jane|jane\.roe|young/);
      const events = await store.events(t, id);
      expect(events.at(-1)).toMatchObject({ type: 'anonymized', actor: 'retention-job' });
      expect(events.filter((e) => e.type === 'anonymized')).toHaveLength(1);
      expect((await chainOk(t, id))?.valid).toBe(true);
    }
    expect(await store.get(t, 'd181')).toMatchObject({ review_verdict: 'CONFIRMED', human_reviewed: true, human_bias_tag: { tag: 'ageism' } });

    const rows = await d.rollups.rows(t);
    expect(rows.map((r) => [r.day, r.bias_type, r.review_outcome, r.record_count])).toEqual(
      expect.arrayContaining([
        [utcDay(ago(366)), '*', 'UNREVIEWED', 1],
        [utcDay(ago(366)), 'none', 'UNREVIEWED', 1],
      ]),
    );
    expect(rows).toHaveLength(2);

    const settled = await snapshot(t);
    const again = await run(d, t);
    expect(again.totals).toMatchObject({ anonymized: 0, purged: 0, rollup_rows: 0, rolled_up_days: 0 });
    expect(await snapshot(t)).toEqual(settled);
    expect(await d.rollups.rows(t)).toEqual(rows);
  });

  it('dry run reports the same counts and writes nothing', async () => {
    const t = uniqueTenant('ret-dry');
    const d = deps();
    await seed(t, 'a', ago(200));
    await seed(t, 'b', ago(370));
    await seed(t, 'c', ago(370, 60));
    const before = await snapshot(t);
    const report = await run(d, t, { dryRun: true });
    expect(report.dry_run).toBe(true);
    expect(report.totals).toMatchObject({ anonymized: 1, purged: 2, rolled_up_days: 1, rollup_rows: 2 });
    expect(await snapshot(t)).toEqual(before);
    expect(await d.rollups.rows(t)).toEqual([]);
    expect((await retentionCursorDoc(db, t).get()).exists).toBe(false);
  });

  it('a run killed mid-purge resumes without losing or double-counting the day it was purging', async () => {
    const t = uniqueTenant('ret-crash');
    const d = deps();
    for (let i = 0; i < 3; i++) await seed(t, `old401-${i}`, ago(401, i), { llm_model: 'm-a' });
    for (let i = 0; i < 7; i++) await seed(t, `old400-${i}`, ago(400, i), { llm_model: 'm-b' });
    let pages = 0;
    const crash: RetentionOptions = {
      batchSize: 3,
      onProgress: (p) => {
        if (p.phase === 'purge' && ++pages === 2) throw new Error('simulated crash');
      },
    };
    await expect(run(d, t, crash)).rejects.toThrow('simulated crash');
    // Day 401 is gone; day 400 was rolled up and is half purged; the cursor says so.
    const remaining = (await auditsCol(db, t).get()).docs.map((x) => x.id).sort();
    expect(remaining).toHaveLength(4);
    expect(remaining.every((id) => id.startsWith('old400-'))).toBe(true);
    expect((await retentionCursorDoc(db, t).get()).data()).toMatchObject({ phase: 'purge', purge_day: utcDay(ago(400)), purge_day_rolled_up: true });

    const resumed = await run(d, t, { batchSize: 3 });
    expect(resumed.totals).toMatchObject({ purged: 4, rolled_up_days: 0 });
    expect((await auditsCol(db, t).get()).size).toBe(0);
    const totals = Object.fromEntries((await d.rollups.rows(t)).filter((r) => r.bias_type === '*').map((r) => [`${r.day}/${r.llm_model}`, r.record_count]));
    expect(totals).toEqual({ [`${utcDay(ago(401))}/m-a`]: 3, [`${utcDay(ago(400))}/m-b`]: 7 });
    expect((await run(d, t)).totals).toMatchObject({ anonymized: 0, purged: 0 });
  });

  it('a run killed mid-anonymisation resumes and every record gets exactly one anonymized event', async () => {
    const t = uniqueTenant('ret-crash-anon');
    const d = deps();
    const ids = Array.from({ length: 11 }, (_, i) => `r${String(i).padStart(2, '0')}`);
    for (const [i, id] of ids.entries()) await seed(t, id, ago(200, i));
    let n = 0;
    await expect(
      run(d, t, {
        batchSize: 4,
        concurrency: 2,
        onProgress: () => {
          if (++n === 5) throw new Error('simulated crash');
        },
      }),
    ).rejects.toThrow('simulated crash');
    const anonymisedAfterCrash = (await auditsCol(db, t).where('anonymized_at', '!=', null).get()).size;
    expect(anonymisedAfterCrash).toBeGreaterThanOrEqual(4);
    expect(anonymisedAfterCrash).toBeLessThan(ids.length);
    expect((await retentionCursorDoc(db, t).get()).data()).toMatchObject({ phase: 'anonymize' });

    const resumed = await run(d, t, { batchSize: 4, concurrency: 2 });
    expect(resumed.totals.anonymized + anonymisedAfterCrash).toBe(ids.length);
    for (const id of ids) {
      const events = await store.events(t, id);
      expect(events.map((e) => e.type)).toEqual(['created', 'anonymized']);
      expect((await chainOk(t, id))?.valid).toBe(true);
    }
    expect((await retentionCursorDoc(db, t).get()).data()).toMatchObject({ phase: 'done' });
  });

  it('a failed run returns only after its in-flight anonymisations have landed', async () => {
    const t = uniqueTenant('ret-inflight');
    await seed(t, 'fast', ago(200, 0));
    await seed(t, 'slow', ago(200, 1));
    // 'slow' is still being written when 'fast' reports progress and the run fails
    const slowStore = new Proxy(store, {
      get(target, prop) {
        const v = Reflect.get(target, prop, target) as unknown;
        if (prop !== 'applyEvent' || typeof v !== 'function') return typeof v === 'function' ? v.bind(target) : v;
        return async (...args: unknown[]) => {
          if (args[1] === 'slow') await new Promise((ok) => setTimeout(ok, 400));
          return (v as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    const d = { ...deps(), store: slowStore };
    await expect(run(d, t, { batchSize: 4, concurrency: 2, onProgress: () => { throw new Error('simulated crash'); } })).rejects.toThrow('simulated crash');
    const anonymised = (await auditsCol(db, t).where('anonymized_at', '!=', null).get()).docs.map((x) => x.id).sort();
    expect(anonymised).toEqual(['fast', 'slow']);
    expect((await run(deps(), t)).totals).toMatchObject({ anonymized: 0 });
  });

  it('honours a per-tenant policy document and skips tenants whose policy is disabled or invalid', async () => {
    const t = uniqueTenant('ret-policy');
    const d = deps();
    await retentionPolicyDoc(db, t).set({ anonymize_after_days: 30, purge_after_days: 60 });
    await seed(t, 'd20', ago(20));
    await seed(t, 'd40', ago(40));
    await seed(t, 'd70', ago(70));
    const report = await run(d, t);
    expect(report.totals).toMatchObject({ anonymized: 1, purged: 1 });
    expect((await store.get(t, 'd40'))?.anonymized_at).toBe(NOW);
    expect((await store.get(t, 'd20'))?.anonymized_at).toBeNull();

    const held = uniqueTenant('ret-hold');
    await retentionPolicyDoc(db, held).set({ enabled: false });
    await seed(held, 'old', ago(400));
    const bad = uniqueTenant('ret-bad');
    await retentionPolicyDoc(db, bad).set({ anonymize_after_days: 'soon' });
    await seed(bad, 'old', ago(400));
    const r2 = await runRetention(d, { tenants: [held, bad] });
    expect(r2.tenants.map((x) => x.skipped)).toEqual(['retention disabled by tenant policy', 'invalid retention policy document']);
    expect(await store.get(held, 'old')).not.toBeNull();
    expect(await store.get(bad, 'old')).not.toBeNull();
  });

  it('discovers tenants that exist only through their audits', async () => {
    const t = uniqueTenant('ret-disc');
    await seed(t, 'x', ago(1));
    expect(await retention.listTenants()).toContain(t);
  });

  it('refuses to write without HMAC_SECRET', async () => {
    const t = uniqueTenant('ret-nokey');
    await expect(run({ ...deps(), hmacSecret: undefined }, t)).rejects.toThrow(/HMAC_SECRET/);
  });
});
