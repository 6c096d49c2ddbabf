// Aggregate job: per tenant, window statistics from the warehouse → pooled report (ADR-018) → warehouse report row,
// Firestore tenants/{t}/bias_reports/latest (+ history) and deduplicated alerts on bias-alerts.
import { createHash } from 'node:crypto';
import { buildBiasReport, DEFAULT_REPORT_OPTIONS, reportAlerts, type WindowQuery } from '../domain/council';
import type { BiasReportJson } from '../schemas/council';
import { TOPICS } from '../topology';
import type { CouncilDeps } from './council-context';

export interface AggregateOptions {
  now?: string | Date;
  /** Only this tenant (default: every tenant with records). */
  tenantId?: string;
}

export interface TenantAggregate {
  tenant_id: string;
  sessions: number;
  records: number;
  confidence_tier: string;
  alerts_published: number;
}

export interface AggregateResult {
  generated_at: string;
  tenants: TenantAggregate[];
}

export type AggregateDeps = Pick<CouncilDeps, 'config' | 'log' | 'clock' | 'bus' | 'councilStore' | 'warehouse'>;

export function reportWindowQuery(deps: Pick<CouncilDeps, 'config'>, tenantId: string | null, now: Date): WindowQuery {
  return { tenantId, now, days: deps.config.BIAS_WINDOW_DAYS, maxSessions: deps.config.BIAS_WINDOW_SESSIONS, modelId: null, configVersion: null };
}

export const alertId = (tenantId: string, parts: string[]) => createHash('sha256').update(JSON.stringify([tenantId, ...parts])).digest('hex').slice(0, 32);

export async function aggregateTenant(deps: AggregateDeps, tenantId: string, now: Date): Promise<{ report: BiasReportJson; alertsPublished: number }> {
  const query = reportWindowQuery(deps, tenantId, now);
  const stats = await deps.warehouse.windowStats(query);
  const report = buildBiasReport(stats, {
    ...DEFAULT_REPORT_OPTIONS,
    generatedAt: now,
    tenantId,
    query,
    lengthThreshold: deps.config.COUNCIL_LENGTH_CORRELATION_THRESHOLD,
    bootstrapResamples: deps.config.BIAS_BOOTSTRAP_RESAMPLES,
    bootstrapSeed: deps.config.BIAS_BOOTSTRAP_SEED,
  });
  await deps.warehouse.writeReport(tenantId, report);
  await deps.councilStore.saveReport(tenantId, report);
  let alertsPublished = 0;
  for (const a of reportAlerts(report)) {
    const id = alertId(tenantId, a.alert_id_parts);
    const { needsPublish } = await deps.councilStore.claimAlert({
      alert_id: id,
      tenant_id: tenantId,
      kind: a.kind,
      subject: a.subject,
      window_start: report.window.start,
      window_end: report.window.end,
      detail: a.detail,
      created_at: report.generated_at,
      published_at: null,
    });
    if (!needsPublish) continue;
    await deps.bus.publish(
      TOPICS.alerts,
      {
        type: 'council_bias',
        alert_id: id,
        tenant_id: tenantId,
        kind: a.kind,
        subject: a.subject,
        window_start: report.window.start,
        window_end: report.window.end,
        confidence_tier: report.confidence_tier,
        detail: a.detail,
        generated_at: report.generated_at,
      },
      { tenant_id: tenantId, kind: a.kind, alert_id: id },
    );
    await deps.councilStore.markAlertPublished(tenantId, id, deps.clock.now().toISOString());
    alertsPublished++;
  }
  return { report, alertsPublished };
}

/** One aggregate run: the scheduler tick's handler and `bias-monitor jobs run aggregate`. */
export async function runAggregateJob(deps: AggregateDeps, opts: AggregateOptions = {}): Promise<AggregateResult> {
  const now = opts.now ? new Date(opts.now) : deps.clock.now();
  const tenants = opts.tenantId ? [opts.tenantId] : await deps.warehouse.listTenants();
  const out: TenantAggregate[] = [];
  for (const tenantId of tenants) {
    const { report, alertsPublished } = await aggregateTenant(deps, tenantId, now);
    out.push({ tenant_id: tenantId, sessions: report.window.sessions, records: report.window.records, confidence_tier: report.confidence_tier, alerts_published: alertsPublished });
  }
  deps.log.info('aggregate run finished', { tenants: out.length, alerts: out.reduce((a, t) => a + t.alerts_published, 0) });
  return { generated_at: now.toISOString(), tenants: out };
}
