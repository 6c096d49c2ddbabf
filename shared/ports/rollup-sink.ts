// Warehouse table `audit_daily_rollups` (DuckDB locally, BigQuery in production). Upserts are idempotent:
// a row with an existing row_key replaces it.
import type { DailyRollupRow } from '../schemas/retention';

export interface RollupSink {
  upsert(rows: readonly DailyRollupRow[]): Promise<void>;
  /** Rows of one tenant, ordered by day then key (reports and tests). */
  rows(tenantId: string, opts?: { fromDay?: string; toDay?: string }): Promise<DailyRollupRow[]>;
  close?(): Promise<void>;
}
