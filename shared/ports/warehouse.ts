// Reporting warehouse for council bias metrics (DuckDB locally, BigQuery in production).
import type { WindowQuery, WindowStats } from '../domain/council/window';
import type { BiasMetricRecord, BiasReportJson } from '../schemas/council';

export interface MetricWarehouse {
  /** Appends records; a record_id already present is not written twice (idempotent under redelivery). */
  appendRecords(records: readonly BiasMetricRecord[]): Promise<{ inserted: number }>;
  /** Sufficient statistics of one window, computed in SQL. */
  windowStats(query: WindowQuery): Promise<WindowStats>;
  /** Appends one report row (per tenant, keyed by generated_at). */
  writeReport(tenantId: string, report: BiasReportJson): Promise<void>;
  /** Tenants that have records (the aggregate job runs per tenant). */
  listTenants(): Promise<string[]>;
  close(): Promise<void>;
}
