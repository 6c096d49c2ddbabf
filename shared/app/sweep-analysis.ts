// The analysis sweeper (scheduled): re-requests analysis for audits whose request was lost or dead-lettered, so an
// outage of the bus or the analyzer never leaves an audit PENDING for good. Bounded per run and idempotent: the
// worker ignores repeats of an analysed audit (beyond finishing a missing stream publish).
import type { Logger } from '../logging';
import type { AuditStore } from '../ports/audit-store';
import type { Clock } from '../ports/clock';
import type { EventBus } from '../ports/event-bus';
import type { StaleAuditFinder, StaleAuditRef, StaleKind } from '../ports/stale-audits';
import type { AnalysisRequestMessage } from '../schemas/messages';
import { TOPICS } from '../topology';

export interface SweepDeps {
  finder: StaleAuditFinder;
  store: AuditStore;
  bus: EventBus;
  clock: Clock;
  log: Logger;
}

export interface SweepOptions {
  /** A PENDING audit requested (or created, if never requested) longer ago than this is re-requested. */
  pendingAfterMs: number;
  /** A BIAS_ANALYSIS_FAILED audit last requested longer ago than this is re-requested (after dead-lettering). */
  failedAfterMs: number;
  /** FAILED audits at this many attempts are left FAILED (for a human); bounds the work an always-failing input costs. */
  maxAttempts: number;
  /** At most this many re-requests per run. */
  limit: number;
  /** Count only. */
  dryRun?: boolean;
}

/** The worker re-publishes a missing stream event only after this grace (bias-results.ts); stay past it. */
const UNSTREAMED_MIN_AGE_MS = 31_000;
const PUBLISH_CHUNK = 100;
const GRPC_NOT_FOUND = 5;

export interface SweepReport {
  found: Record<StaleKind, number>;
  requested: number;
  dryRun: boolean;
  durationMs: number;
}

export async function sweepAnalysis(deps: SweepDeps, opts: SweepOptions): Promise<SweepReport> {
  const started = deps.clock.now();
  const ago = (ms: number) => new Date(started.getTime() - ms).toISOString();
  const found: Record<StaleKind, number> = { unrequested: 0, pending: 0, failed: 0, unstreamed: 0 };
  const seen = new Set<string>();
  const todo: StaleAuditRef[] = [];
  const plan: { kind: StaleKind; before: string }[] = [
    { kind: 'unrequested', before: ago(opts.pendingAfterMs) },
    { kind: 'pending', before: ago(opts.pendingAfterMs) },
    { kind: 'failed', before: ago(opts.failedAfterMs) },
    { kind: 'unstreamed', before: ago(Math.max(opts.pendingAfterMs, UNSTREAMED_MIN_AGE_MS)) },
  ];
  for (const step of plan) {
    const remaining = opts.limit - todo.length;
    if (remaining <= 0) break;
    const refs = await deps.finder.find({ kind: step.kind, before: step.before, limit: remaining, maxAttempts: opts.maxAttempts });
    for (const r of refs) {
      const key = `${r.tenantId}/${r.auditId}`;
      if (seen.has(key)) continue;
      seen.add(key);
      found[step.kind]++;
      todo.push(r);
    }
  }

  if (!opts.dryRun) {
    const now = started.toISOString();
    for (let i = 0; i < todo.length; i += PUBLISH_CHUNK) {
      await Promise.all(
        todo.slice(i, i + PUBLISH_CHUNK).map(async (r) => {
          const message: AnalysisRequestMessage = { tenant_id: r.tenantId, audit_id: r.auditId, trace_id: r.traceId };
          await deps.bus.publish(TOPICS.analysisRequests, message, { trace_id: r.traceId, tenant_id: r.tenantId, resent_by: 'analysis-sweeper' });
          // An audit purged since the query (retention) has nothing left to mark.
          await deps.store.markAnalysisRequested(r.tenantId, r.auditId, now).catch((e: unknown) => {
            if ((e as { code?: unknown }).code !== GRPC_NOT_FOUND) throw e;
          });
        }),
      );
    }
  }
  const report: SweepReport = { found, requested: opts.dryRun ? 0 : todo.length, dryRun: opts.dryRun ?? false, durationMs: deps.clock.now().getTime() - started.getTime() };
  deps.log.info('analysis sweep finished', { ...report });
  return report;
}
