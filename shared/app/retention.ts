// Retention job (FR-BIAS-4.7): per tenant, roll up and purge whole days past the purge age, then anonymise
// records past the anonymisation age. Batches with a cursor in `tenants/{t}/jobs/retention`, so a run that dies
// mid-batch resumes where it stopped; every step is idempotent, so re-running changes nothing.
import { randomUUID } from 'node:crypto';
import { anonymizeRecord, anonymizedEventPayload } from '../domain/retention/anonymize';
import { DAY_MS, cutoffs, dayRange, resolvePolicy, utcDay } from '../domain/retention/policy';
import { mergeRollups, rollupRows } from '../domain/retention/rollup';
import { AppError, isAppError, validationFailed } from '../errors';
import type { Logger } from '../logging';
import type { AuditStore } from '../ports/audit-store';
import type { Clock } from '../ports/clock';
import type { RecordKey, RetentionStore } from '../ports/retention-store';
import type { RollupSink } from '../ports/rollup-sink';
import { AuditRecord } from '../schemas/audit';
import type { DailyRollupRow, RetentionCursor, RetentionReport, RetentionTenantReport } from '../schemas/retention';

export interface RetentionDeps {
  store: AuditStore;
  retention: RetentionStore;
  rollups: RollupSink;
  clock: Clock;
  log: Logger;
  /** HMAC_SECRET: keys the pseudonymised user ids. Required unless dry-running. */
  hmacSecret: string | undefined;
}

export interface RetentionProgress {
  tenantId: string;
  phase: 'anonymize' | 'purge';
  auditIds: readonly string[];
  /** Records handled so far for this tenant in this run (both phases). */
  processed: number;
}

export interface RetentionOptions {
  /** Report what would be done without writing anything (not even the cursor). */
  dryRun?: boolean;
  /** Restrict the run to these tenants (default: every tenant). */
  tenants?: readonly string[];
  batchSize?: number;
  /** Records anonymised in parallel within a batch. */
  concurrency?: number;
  runId?: string;
  signal?: AbortSignal;
  /** Called after each record (anonymise) or each purged page; a throw aborts the run (tests use it to crash it). */
  onProgress?: (p: RetentionProgress) => void | Promise<void>;
}

/** Cursors and run reports carry a TTL timestamp; Firestore deletes them this long after their last write. */
export const RETENTION_BOOKKEEPING_TTL_DAYS = 90;
const ACTOR = 'retention-job';
const EVENT_KEY = 'anonymized';
const EPOCH = new Date(0).toISOString();

const emptyTenantReport = (tenantId: string): RetentionTenantReport => ({
  tenant_id: tenantId,
  skipped: null,
  anonymized: 0,
  already_anonymized: 0,
  rolled_up_days: 0,
  rollup_rows: 0,
  purged: 0,
  events_purged: 0,
});

export async function runRetention(deps: RetentionDeps, opts: RetentionOptions = {}): Promise<RetentionReport> {
  const t0 = performance.now();
  const now = deps.clock.now();
  const dryRun = opts.dryRun ?? false;
  const runId = opts.runId ?? `${now.toISOString().replace(/[:.]/g, '')}-${randomUUID().slice(0, 8)}`;
  if (!dryRun && !deps.hmacSecret) {
    throw new AppError('VALIDATION_FAILED', 'HMAC_SECRET is required to anonymise user ids (or run with --dry-run)');
  }
  const log = deps.log.child({ runId, dryRun });
  const tenants = opts.tenants ? [...opts.tenants] : await deps.retention.listTenants();
  const reports: RetentionTenantReport[] = [];
  for (const tenantId of tenants) {
    opts.signal?.throwIfAborted();
    const r = await retainTenant(deps, { ...opts, dryRun, runId }, tenantId, now);
    log.info('retention tenant done', { tenantId, ...r });
    reports.push(r);
  }
  const sum = (k: keyof RetentionTenantReport) => reports.reduce((a, r) => a + (typeof r[k] === 'number' ? (r[k] as number) : 0), 0);
  const report: RetentionReport = {
    run_id: runId,
    now: now.toISOString(),
    dry_run: dryRun,
    tenants: reports,
    totals: { tenants: reports.length, anonymized: sum('anonymized'), purged: sum('purged'), rollup_rows: sum('rollup_rows'), rolled_up_days: sum('rolled_up_days') },
    duration_ms: Math.round(performance.now() - t0),
  };
  if (!dryRun) await deps.retention.saveRunReport(report, new Date(now.getTime() + RETENTION_BOOKKEEPING_TTL_DAYS * DAY_MS));
  log.info('retention run finished', { ...report.totals, durationMs: report.duration_ms });
  return report;
}

async function retainTenant(
  deps: RetentionDeps,
  opts: RetentionOptions & { dryRun: boolean; runId: string },
  tenantId: string,
  now: Date,
): Promise<RetentionTenantReport> {
  const report = emptyTenantReport(tenantId);
  let policy;
  try {
    policy = resolvePolicy(await deps.retention.policyDoc(tenantId));
  } catch (e) {
    // A broken policy document must not fall back to defaults (it may be stricter or a legal hold): skip and say so.
    deps.log.warn('retention policy invalid; tenant skipped', { tenantId, error: e instanceof Error ? e.message.slice(0, 500) : 'invalid' });
    return { ...report, skipped: 'invalid retention policy document' };
  }
  if (!policy.enabled) return { ...report, skipped: 'retention disabled by tenant policy' };

  const batch = Math.max(1, opts.batchSize ?? 200);
  const concurrency = Math.max(1, opts.concurrency ?? 8);
  const c = cutoffs(policy, now);
  const expires = new Date(now.getTime() + RETENTION_BOOKKEEPING_TTL_DAYS * DAY_MS);
  const previous = opts.dryRun ? null : await deps.retention.cursor(tenantId);
  let cursor: RetentionCursor = {
    phase: 'purge',
    run_id: opts.runId,
    after: null,
    purge_day: previous?.purge_day ?? null,
    purge_day_rolled_up: previous?.purge_day_rolled_up ?? false,
    updated_at: now.toISOString(),
  };
  const save = async (patch: Partial<RetentionCursor>) => {
    cursor = { ...cursor, ...patch, updated_at: deps.clock.now().toISOString() };
    if (!opts.dryRun) await deps.retention.saveCursor(tenantId, cursor, expires);
  };
  let processed = 0;
  const progress = async (phase: RetentionProgress['phase'], auditIds: readonly string[]) => {
    processed += phase === 'purge' ? auditIds.length : 1;
    await opts.onProgress?.({ tenantId, phase, auditIds, processed });
  };

  // 1. Roll up, then purge, whole UTC days older than the purge cutoff, oldest first.
  let from = EPOCH;
  for (;;) {
    opts.signal?.throwIfAborted();
    const oldest = await deps.retention.oldestBetween(tenantId, from, c.purgeBefore);
    if (!oldest) break;
    const day = utcDay(oldest.created_at);
    const range = dayRange(day);
    if (!(cursor.purge_day === day && cursor.purge_day_rolled_up)) {
      // The day is complete (created_at is server time and the day is past), so its roll-up is final.
      const acc = new Map<string, DailyRollupRow>();
      let after: RecordKey | null = null;
      for (;;) {
        const page = await deps.retention.recordsBetween(tenantId, range.start, range.end, after, batch);
        if (page.length === 0) break;
        mergeRollups(acc, rollupRows(page));
        const last = page[page.length - 1]!;
        after = { id: last.id, created_at: last.created_at };
      }
      const rows = [...acc.values()];
      if (!opts.dryRun) await deps.rollups.upsert(rows);
      await save({ phase: 'purge', purge_day: day, purge_day_rolled_up: true });
      report.rolled_up_days += 1;
      report.rollup_rows += rows.length;
      if (opts.dryRun) {
        report.purged += rows.filter((r) => r.bias_type === '*').reduce((a, r) => a + r.record_count, 0);
        from = range.end;
        continue;
      }
    }
    for (;;) {
      opts.signal?.throwIfAborted();
      const page = await deps.retention.recordsBetween(tenantId, range.start, range.end, null, batch);
      if (page.length === 0) break;
      const ids = page.map((p) => p.id);
      const done = await deps.retention.purge(tenantId, ids);
      report.purged += done.records;
      report.events_purged += done.events;
      await progress('purge', ids);
    }
    // The day is gone; forget it so the cursor never vouches for a roll-up of records it did not see.
    await save({ purge_day: day, purge_day_rolled_up: false });
    from = range.end;
  }

  // 2. Anonymise records past the anonymisation age (and younger than the purge cutoff), in created_at order.
  let after: RecordKey | null = previous?.phase === 'anonymize' ? previous.after : null;
  await save({ phase: 'anonymize', after });
  const at = now.toISOString();
  for (;;) {
    opts.signal?.throwIfAborted();
    const keys = await deps.retention.anonymizeCandidates(tenantId, c.purgeBefore, c.anonymizeBefore, after, batch);
    if (keys.length === 0) break;
    if (opts.dryRun) {
      report.anonymized += keys.length;
    } else {
      for (let i = 0; i < keys.length; i += concurrency) {
        // allSettled, not all: a failed run returns only once its sibling writes have landed or failed, so nothing
        // is still writing after the job has reported the failure.
        const results = await Promise.allSettled(
          keys.slice(i, i + concurrency).map(async (k) => {
            opts.signal?.throwIfAborted();
            const applied = await anonymizeOne(deps, tenantId, k.id, at, policy.anonymize_after_days);
            if (applied) report.anonymized += 1;
            else report.already_anonymized += 1;
            await progress('anonymize', [k.id]);
          }),
        );
        const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
        if (failed) throw failed.reason;
      }
    }
    const last = keys[keys.length - 1]!;
    after = { id: last.id, created_at: last.created_at };
    await save({ after });
  }
  await save({ phase: 'done', after: null });
  return report;
}

async function anonymizeOne(deps: RetentionDeps, tenantId: string, auditId: string, at: string, policyDays: number): Promise<boolean> {
  const secret = deps.hmacSecret;
  if (!secret) throw validationFailed([{ path: 'HMAC_SECRET', message: 'is required' }]);
  try {
    const result = await deps.store.applyEvent(tenantId, auditId, EVENT_KEY, (current) => {
      if (current.anonymized_at !== null) return null;
      return {
        draft: { type: 'anonymized', at, key: EVENT_KEY, actor: ACTOR, payload: anonymizedEventPayload(policyDays) },
        next: anonymizeRecord(AuditRecord.parse(current), { secret, at }),
      };
    });
    return result.applied;
  } catch (e) {
    // Purged or deleted between the query and the transaction: nothing left to anonymise.
    if (isAppError(e) && e.code === 'NOT_FOUND') return false;
    throw e;
  }
}
