// `bias-monitor jobs run retention` against the emulator, restricted to this test's tenant.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Firestore } from '@google-cloud/firestore';
import { afterAll, describe, expect, it } from 'vitest';
import { FirestoreAuditStore } from '../../../shared/adapters/firestore/audit-store';
import { newAuditRecord } from '../../../shared/domain/audit/record';
import { DAY_MS } from '../../../shared/domain/retention';
import { LlmInteractionInput } from '../../../shared/schemas/interaction';
import { RetentionReport } from '../../../shared/schemas/retention';
import { uniqueTenant } from '../../support/tenants';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const db = new Firestore({ projectId: process.env.GCLOUD_PROJECT });
const store = new FirestoreAuditStore(db);
afterAll(() => db.terminate());

const cli = (args: string[]) =>
  spawnSync(process.execPath, [join(ROOT, 'bin', 'bias-monitor.js'), 'jobs', ...args], {
    cwd: ROOT,
    env: { ...process.env, DUCKDB_PATH: ':memory:' },
    encoding: 'utf8',
    timeout: 60_000,
  });

describe('bias-monitor jobs run retention', () => {
  it('previews with --dry-run, then anonymises, for one tenant at a given --now', async () => {
    const t = uniqueTenant('ret-cli');
    const now = '2026-11-01T03:00:00.000Z';
    const created = new Date(Date.parse(now) - 200 * DAY_MS).toISOString();
    const input = LlmInteractionInput.parse({ original_query: 'q', llm_response: 'r', llm_provider: 'p', llm_model: 'm', user_id: 'u1' });
    const record = newAuditRecord(input, { id: 'a1', tenantId: t, traceId: 'b'.repeat(32), now: created });
    await store.create(record, { type: 'created', at: created, key: 'created', actor: 'test', payload: {} });

    const dry = cli(['run', 'retention', '--dry-run', '--now', now, '--tenant', t, '--json']);
    expect(dry.status, dry.stderr).toBe(0);
    const preview = RetentionReport.parse(JSON.parse(dry.stdout));
    expect(preview).toMatchObject({ dry_run: true, totals: { anonymized: 1, purged: 0 } });
    expect((await store.get(t, 'a1'))?.anonymized_at).toBeNull();

    const real = cli(['run', 'retention', '--now', now, '--tenant', t]);
    expect(real.status, real.stderr).toBe(0);
    expect(real.stdout).toMatch(/totals: 1 tenants, 1 anonymised/);
    expect((await store.get(t, 'a1'))?.anonymized_at).toBe(now);
  });

  it('lists the schedules and rejects bad input with exit code 2', () => {
    const list = cli(['list']);
    expect(list.status).toBe(0);
    expect(list.stdout).toMatch(/retention\s+15 2 \* \* \*\s+Etc\/UTC\s+retention-ticks/);
    expect(cli(['run', 'retention', '--now', 'tomorrow']).status).toBe(2);
    expect(cli(['pause', 'retention']).status).toBe(2);
  });
});
