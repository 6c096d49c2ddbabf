// Daily roll-up of audits before they are purged: counts by tenant, day, model, bias type and review outcome.
import type { AuditRecord } from '../../schemas/audit';
import type { DailyRollupRow } from '../../schemas/retention';
import { canonicalJson, sha256Hex } from '../canonical-json';
import { utcDay } from './policy';

export type RollupInput = Pick<
  AuditRecord,
  'tenant_id' | 'created_at' | 'llm_model' | 'bias_type' | 'bias_detected' | 'bias_status' | 'review_verdict' | 'anonymized_at'
>;

/** Bias type of the per-record total row; `none` counts records with no detected type. */
export const ALL_TYPES = '*';
export const NO_TYPE = 'none';

export const rollupRowKey = (d: Pick<DailyRollupRow, 'tenant_id' | 'day' | 'llm_model' | 'bias_type' | 'review_outcome'>) =>
  sha256Hex(canonicalJson([d.tenant_id, d.day, d.llm_model, d.bias_type, d.review_outcome]));

/**
 * Rows for complete days. A record with several bias types counts once in each type's row and once in the `*`
 * row, so sum `record_count` over `bias_type = '*'` for record totals.
 */
export function rollupRows(records: readonly RollupInput[]): DailyRollupRow[] {
  const rows = new Map<string, DailyRollupRow>();
  for (const r of records) {
    const day = utcDay(r.created_at);
    const outcome = r.review_verdict ?? 'UNREVIEWED';
    const types = [ALL_TYPES, ...(r.bias_type.length > 0 ? [...new Set(r.bias_type)] : [NO_TYPE])];
    for (const bias_type of types) {
      const dims = { tenant_id: r.tenant_id, day, llm_model: r.llm_model, bias_type, review_outcome: outcome } as const;
      const key = rollupRowKey(dims);
      const row = rows.get(key) ?? { row_key: key, ...dims, record_count: 0, bias_detected_count: 0, analysis_failed_count: 0, anonymized_count: 0 };
      row.record_count += 1;
      if (r.bias_detected) row.bias_detected_count += 1;
      if (r.bias_status === 'BIAS_ANALYSIS_FAILED') row.analysis_failed_count += 1;
      if (r.anonymized_at !== null) row.anonymized_count += 1;
      rows.set(key, row);
    }
  }
  return [...rows.values()].sort((a, b) => (a.row_key < b.row_key ? -1 : 1));
}

/** Adds rows of the same key (used when a day is read in pages). */
export function mergeRollups(into: Map<string, DailyRollupRow>, rows: readonly DailyRollupRow[]) {
  for (const r of rows) {
    const cur = into.get(r.row_key);
    if (!cur) into.set(r.row_key, { ...r });
    else {
      cur.record_count += r.record_count;
      cur.bias_detected_count += r.bias_detected_count;
      cur.analysis_failed_count += r.analysis_failed_count;
      cur.anonymized_count += r.anonymized_count;
    }
  }
  return into;
}
